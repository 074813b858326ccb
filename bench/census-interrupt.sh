#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Ctrl-C in the Linux census: `git undertaker --all --arch=x86 v6.1` on the bench
# repository (bench/linux-repo.sh), interrupted after 3, 8 and 20 s (or the
# seconds given), each time as a terminal does it: SIGINT to the whole process
# group (the git wrapper and git-undertaker), then the same to git-undertaker
# alone. Prints the exit status and how long the run took to end after the
# signal; the target is 130 within 2 s. A run that ends before its signal
# says so. The disk cache is removed before each run, so every run starts cold.
#
#   bench/census-interrupt.sh [seconds...]
#
# Results on stdout and in $BENCH_WORK/census-interrupt/results.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$work/census-interrupt
mkdir -p "$out"
bench_log=$out/results.txt
repo=$("$bench_dir/linux-repo.sh")
delays=("$@")
test ${#delays[@]} -gt 0 || delays=(3 8 20)
say "== bench/census-interrupt.sh $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(git undertaker --version)"

# Job control: each run its own process group, SIGINT not ignored as in a script's `cmd &`.
set -m
one () {
	local how=$1 s=$2 pid rc=0 t0 t1
	rm -rf "$repo/undertaker"
	if test "$how" = group; then
		GIT_DIR=$repo git undertaker --all --arch=x86 -q --no-notes v6.1 >/dev/null 2>"$out/err" &
	else
		GIT_DIR=$repo git-undertaker --all --arch=x86 -q --no-notes v6.1 >/dev/null 2>"$out/err" &
	fi
	pid=$!
	sleep "$s"
	t0=$(date +%s.%N)
	if ! kill -INT -- "$( test "$how" = group && echo "-$pid" || echo "$pid")" 2>/dev/null; then
		wait "$pid" || rc=$?
		say "$(printf '%-34s ended before the signal (exit %d)' "$how, SIGINT at $s s:" "$rc")"
		return
	fi
	wait "$pid" 2>/dev/null || rc=$?
	t1=$(date +%s.%N)
	say "$(printf '%-34s exit %3d, %.2f s after the signal' "$how, SIGINT at $s s:" "$rc" \
		"$(echo "$t1 - $t0" | bc)")"
}
for how in group undertaker-alone; do
	for s in "${delays[@]}"; do
		one "$how" "$s"
	done
done
