#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git vampyr against its speed targets on Linux 6.1 (x86), for the five files of
# bench/vampyr.sh with the most conditional directives: <= 5 s wall without
# --expand, and (issue 29) <= 5 s wall with it. For each file, in a row:
#   1. without --expand;
#   2. --expand with the compiler probes, the kept toolchain run and the
#      kept expansions of the configuring tree forgotten (<tree>/.vampyr-probes,
#      .vampyr-toolchain and .vampyr-expanded removed: its first kconfig run
#      asks the compiler, each fragment goes through kconfig);
#   3. --expand again (the toolchain's kconfig run and each fragment's
#      .config kept from 2: no kconfig runs while the programs on PATH and
#      what the compiler read are unchanged);
#   4. --expand with VAMPYR_NO_PROBE_CACHE=1 and VAMPYR_NO_EXPAND_CACHE=1
#      (the compiler asked in every kconfig run, every fragment through
#      kconfig), whose expanded .configs must be byte for byte those of 2
#      and 3: the kernel's own kconfig stays the judge.
# Wall and CPU (user + sys, children included) of each, and the kconfig runs
# of the warm --expand (the toolchain's unless kept, one per configuration
# and pin round not kept from before), and the fragments' longest (lines).
# The configuring tree itself is written by the first --expand run if missing.
# Heavy: run it alone (flock /work/wt/heavy.lock on the shared machine).
#
#   bench/vampyr-speed.sh [file...]
#
# Results on stdout and in $BENCH_WORK/vampyr-speed/results.txt.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
repo=${LINUX_REPO:-$("$bench_dir/linux-repo.sh")}
export GIT_DIR=$repo
unset GIT_WORK_TREE VAMPYR_NO_PROBE_CACHE VAMPYR_NO_EXPAND_CACHE
out=$work/vampyr-speed
mkdir -p "$out"
bench_log=$out/results.txt

files=("$@")
test ${#files[@]} -gt 0 ||
	files=(kernel/sched/core.c mm/page_alloc.c kernel/trace/trace.c mm/slub.c net/core/filter.c)

say "== bench/vampyr-speed.sh $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(git vampyr --version), $(gcc --version | head -n 1)"
vampyr=(nice git vampyr --commit v6.1 --arch=x86 --no-notes --format=json)
row () {
	printf '%-22s %11s %11s %11s %11s %4s %5s %s\n' "$@"
}
table=$(row file "no --expand" "cold" "warm" "no cache" runs lines "configurations")
bad=0
for f in "${files[@]}"; do
	name=$(echo "$f" | tr / _)
	say "-- $f"
	timed "  without --expand" "${vampyr[@]}" -o "$out/$name" -- "$f" >"$out/$name.json" 2>"$out/$name.err"
	plain="$timed_wall/$timed_cpu"
	rm -rf "$GIT_DIR"/vampyr/trees/*/.vampyr-probes "$GIT_DIR"/vampyr/trees/*/.vampyr-expanded \
		"$GIT_DIR"/vampyr/trees/*/.vampyr-toolchain
	timed "  --expand, probes not kept yet" "${vampyr[@]}" --expand -o "$out/$name.cold" -- "$f" \
		>"$out/$name.cold.json" 2>"$out/$name.cold.err"
	cold="$timed_wall/$timed_cpu"
	timed "  --expand, probes kept" "${vampyr[@]}" --expand -o "$out/$name.warm" -- "$f" \
		>"$out/$name.warm.json" 2>"$out/$name.warm.err"
	warm="$timed_wall/$timed_cpu"
	runs=$(( $(grep -c "^vampyr: expanding " "$out/$name.warm.err" || true) + \
		$(grep -q "^vampyr: the toolchain's kconfig run as before" "$out/$name.warm.err" && echo 0 || echo 1) ))
	timed "  --expand, VAMPYR_NO_PROBE_CACHE=1 VAMPYR_NO_EXPAND_CACHE=1" \
		env VAMPYR_NO_PROBE_CACHE=1 VAMPYR_NO_EXPAND_CACHE=1 "${vampyr[@]}" --expand \
		-o "$out/$name.none" -- "$f" >"$out/$name.none.json" 2>"$out/$name.none.err"
	none="$timed_wall/$timed_cpu"
	same=identical
	n=0
	for c in "$out/$name.none"/config-*.expanded; do
		n=$((n + 1))
		cmp -s "$c" "$out/$name.warm/${c##*/}" && cmp -s "$c" "$out/$name.cold/${c##*/}" ||
			{ same="DIFFER: ${c##*/}"; bad=1; }
	done
	say "  $n expanded .configs with the caches and without: $same"
	lines=$(wc -l "$out/$name.none"/config-*.config | grep -v ' total$' | sort -n | tail -n 1 | awk '{print $1}')
	table+=$'\n'$(row "$f" "$plain" "$cold" "$warm" "$none" "$runs" "$lines" "$n, $same")
done
say "wall/CPU seconds (targets: 5 s wall without --expand, 5 s with it; fragments <= 60 lines)"
say "$table"
exit $bad
