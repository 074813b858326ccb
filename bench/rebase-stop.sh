#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The rebase stop: `git rebase -i --exec 'git undertaker HEAD^!'` starts a fresh process
# per commit. This runs `git undertaker --no-notes <c>^!` on each of the 12 newest
# non-merge commits of a pinned U-Boot commit, one fresh process each, in order from
# the oldest: a first run with no $GIT_DIR/undertaker/ (cold), then a second run that
# meets what the first one kept there; then, with --explain, the second run again with
# --explain (against the same check without it). Per run: each commit's wall and CPU
# time, then the median and the slowest.
#
#   bench/rebase-stop.sh [--explain] [-n <count>]
#
# The U-Boot repository is the fetched mirror (UBOOT_GIT, default
# /work/.mirror/u-boot+u-boot/repo), borrowed through objects/info/alternates by a
# repository of the script's own in bench/work/rebase-stop/ (the mirror is never
# written). UBOOT_TIP pins the tip (default 6073c36b2c8, the issue's).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

n=12 explain=
while test $# -gt 0; do
	case "$1" in
	--explain) explain=1 ;;
	-n) n=$2; shift ;;
	*) echo "usage: bench/rebase-stop.sh [--explain] [-n <count>]" >&2; exit 129 ;;
	esac
	shift
done

rwork=$work/rebase-stop
repo=$rwork/u-boot.git
mkdir -p "$rwork"
bench_log=$rwork/results.txt
uboot_repo "$repo" bench/rebase-stop.sh
tip=$uboot_tip
export GIT_DIR=$repo
mapfile -t commits < <(git rev-list --reverse --no-merges -n "$n" master)
say "== bench/rebase-stop.sh $(date -u '+%F %T') UTC on $(nproc) cores, $(git undertaker --version): U-Boot ${tip:0:12}, the ${#commits[@]} newest non-merge commits, one process each"

# summary <label> <seconds...>: the median and the slowest.
summary () {
	local label=$1
	shift
	printf '%s\n' "$@" | sort -n | awk -v label="$label" '
		{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%s: median %.2f s, slowest %.2f s\n", label, m, v[NR] }' |
		tee -a "$bench_log" >&3
}

# run <label> <args...>: every commit in a fresh process; $walls and $cpus after.
run () {
	local label=$1 c rc
	shift
	walls=() cpus=()
	say "-- $label"
	for c in "${commits[@]}"; do
		rc=0
		timed "  ${c:0:11}" git undertaker --no-notes "$@" "$c^!" >"$rwork/${c:0:11}.out" \
			2>"$rwork/${c:0:11}.err" || rc=$?
		test $rc -le 1 || { tail -n 3 "$rwork/${c:0:11}.err" >&2; exit 1; }
		walls+=("$timed_wall") cpus+=("$timed_cpu")
	done
	summary "$label, wall" "${walls[@]}"
	summary "$label, CPU (user + sys)" "${cpus[@]}"
}

rm -rf "$repo/undertaker"
run "first run (no \$GIT_DIR/undertaker/)"
run "second run"
if test -n "$explain"; then
	run "second run, --explain" --explain
fi
