#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Interleaved wall-time check on a shared machine: plain spatch rule after rule
# (-D patch --in-place --dir PATH -j 2) and git backport cold (fresh cache) on
# the same rules, alternating round after round, so that both see the same load
# (bench/backport.sh runs one whole side after the other).
#
#   bench/backport-ab.sh <rounds> <rule under scripts/coccinelle>...
#
# Environment: BENCH_WORK (bench/linux-repo.sh's cache), BENCH_PATH (default
# drivers/net/wireless/ath), BACKPORT_BIN (default build/bin/git-backport).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$("$here/linux-repo.sh")
w=$here/work/backport-ab
bin=${BACKPORT_BIN:-$here/../build/bin/git-backport}
path=${BENCH_PATH:-drivers/net/wireless/ath}
rounds=$1
shift
rm -rf "$w"
mkdir -p "$w/rules"
git --git-dir="$src" archive v6.12 scripts/coccinelle | tar -x -C "$w"
for r in "$@"; do
	mkdir -p "$w/rules/$(dirname "$r")"
	cp "$w/scripts/coccinelle/$r" "$w/rules/$r"
done
for i in $(seq "$rounds"); do
	rm -rf "$w/co"
	mkdir -p "$w/co"
	git --git-dir="$src" archive v6.12 "$path" include | tar -x -C "$w/co"
	t0=$(date +%s.%N)
	for r in "$@"; do
		(cd "$w/co" && spatch -D patch --sp-file "$w/rules/$r" --in-place --dir "$path" -j 2 >/dev/null 2>&1) || true
	done
	t1=$(date +%s.%N)
	rm -rf "$w/repo.git"
	git clone -q --bare --shared "$src" "$w/repo.git"
	t2=$(date +%s.%N)
	GIT_DIR=$w/repo.git "$bin" -q --no-notes -j 2 -D patch --rules="$w/rules" --at=v6.12 -- "$path/*.c" >/dev/null 2>&1
	t3=$(date +%s.%N)
	echo "round $i: plain $(echo "$t1 - $t0" | bc) s, backport cold $(echo "$t3 - $t2" | bc) s, load $(cut -d' ' -f1 /proc/loadavg)"
done
