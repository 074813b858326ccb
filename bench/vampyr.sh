#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git vampyr on Linux 6.1 (x86): for 20 real source files with many #if blocks, one
# run per file (`--commit v6.1 -- <file>`), in two phases:
#   1. the cover alone: configurations, the lower bound, blocks covered, dead, time;
#   2. with --expand (the kernel's own `make alldefconfig` on each fragment): the
#      blocks this toolchain rules out (symbols only $(cc-option) and friends decide,
#      learnt from one alldefconfig run), the blocks covered, the coverage after
#      expansion, each fragment's size (+ the symbols pinned for lost blocks), time;
#      the lost blocks and their reasons are in each run's JSON.
#
#   bench/vampyr.sh [--no-expand | --expand-only] [file...]
#
# The repository: $LINUX_REPO, else the one bench/linux-repo.sh makes (tag v6.1).
# Results: a table on stdout, appended to $BENCH_WORK/vampyr/results.txt, with
# each run's JSON kept beside it. Notes are not written into the bench repository.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
work=${BENCH_WORK:-$here/work}
build=${UT_BUILD_DIR:-$top/build}
PATH=$build/bin:$PATH

expand=1 cover=1
case "${1:-}" in
--no-expand) expand= ; shift ;;
--expand-only) cover= ; shift ;;
esac
files=("$@")
if test ${#files[@]} = 0; then
	# The 20 files of kernel/, mm/, net/core, net/ipv4 and lib/ with the most
	# conditional directives in 6.1 (grep -c of #if/#ifdef/#ifndef/#elif/#else).
	files=(kernel/sched/core.c mm/page_alloc.c kernel/trace/trace.c mm/slub.c
		net/core/filter.c kernel/sched/fair.c kernel/fork.c net/core/dev.c
		kernel/sysctl.c mm/vmstat.c mm/slab.c kernel/locking/lockdep.c
		mm/memcontrol.c kernel/module/main.c kernel/trace/ftrace.c kernel/signal.c
		net/ipv4/ipconfig.c kernel/events/core.c mm/shmem.c lib/string.c)
fi

repo=${LINUX_REPO:-}
if test -z "$repo"; then
	repo=$("$here/linux-repo.sh")
fi
export GIT_DIR=$repo
unset GIT_WORK_TREE

out=$work/vampyr
mkdir -p "$out"
results=$out/results.txt
say () { printf '%s\n' "$*" | tee -a "$results"; }

# seconds since the epoch, with fractions
now () { date +%s.%N; }
# cpu <command...>: runs it; $cpu_s is its user + system CPU time (the machine is
# shared: wall time grows with the load, CPU time much less).
cpu () {
	local tf rc=0
	tf=$(mktemp)
	/usr/bin/time -f '%U %S' -o "$tf" "$@" || rc=$?
	cpu_s=$(tail -n 1 "$tf" | awk '{ printf "%.1f", $1 + $2 }')
	rm -f "$tf"
	return $rc
}

say "== bench/vampyr.sh $(date -u '+%F %T') UTC, $(nproc) cores, $(git vampyr --version 2>/dev/null)"

# Phase 1, every file: the cover alone.
if test -n "$cover"; then
say "$(printf '%-26s %6s %5s %7s %7s %5s %7s %6s' file blocks dead covered configs bound time_s cpu_s)"
tot_blocks=0 tot_dead=0 tot_cov=0 tot_cfg=0 tot_bound=0 tot_time=0 n=0 opt=0
for f in "${files[@]}"; do
	name=$(echo "$f" | tr / _)
	t0=$(now)
	cpu git vampyr --commit v6.1 --arch=x86 --no-notes --format=json -o "$out/$name" -- "$f" \
		>"$out/$name.json" 2>"$out/$name.err"
	t1=$(now)
	time_s=$(echo "$t1 - $t0" | bc)
	read -r blocks dead covered configs bound < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["blocks_total"], r["blocks_dead"], r["blocks_covered"], len(r["configs"]), r["lower_bound"])
' "$out/$name.json")
	say "$(printf '%-26s %6s %5s %7s %7s %5s %7.1f %6s' "$f" "$blocks" "$dead" "$covered" "$configs" "$bound" "$time_s" "$cpu_s")"
	tot_blocks=$((tot_blocks + blocks)) tot_dead=$((tot_dead + dead)) tot_cov=$((tot_cov + covered))
	tot_cfg=$((tot_cfg + configs)) tot_bound=$((tot_bound + bound)) n=$((n + 1))
	test "$configs" != "$bound" || opt=$((opt + 1))
	tot_time=$(echo "$tot_time + $time_s" | bc)
done
say "$(printf '%-26s %6s %5s %7s %7s %5s %7.1f' "total ($n files)" "$tot_blocks" "$tot_dead" \
	"$tot_cov" "$tot_cfg" "$tot_bound" "$tot_time")"
say "configurations equal to the lower bound (provably fewest) for $opt of $n files"
fi
test -n "$expand" || exit 0

# Phase 2, every file: --expand with the kernel's make alldefconfig.
say "$(printf '%-26s %9s %7s %8s %7s %-14s %7s %6s' file toolchain covered expanded configs fragments time_s cpu_s)"
tot_tc=0 tot_cov=0 tot_exp=0 tot_cfg=0 tot_time=0 n=0
for f in "${files[@]}"; do
	name=$(echo "$f" | tr / _)
	t0=$(now)
	cpu git vampyr --commit v6.1 --arch=x86 --no-notes --expand --format=json \
		-o "$out/$name.x" -- "$f" >"$out/$name.x.json" 2>"$out/$name.x.err" || true
	t1=$(now)
	time_s=$(echo "$t1 - $t0" | bc)
	read -r toolchain covered expanded configs pinned < <(python3 -c '
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception:
    print("- - failed - -"); sys.exit(0)
# each fragment's size, and (+n) the symbols pinned for lost blocks
sizes = ["%d%s" % (len(c["assignments"]), "+%d" % len(c["pinned"]) if c.get("pinned") else "")
         for c in r["configs"]]
print(r.get("blocks_toolchain", "-"), r["blocks_covered"], r.get("blocks_covered_expanded", "-"),
      len(r["configs"]), ",".join(sizes) or "-")
' "$out/$name.x.json")
	say "$(printf '%-26s %9s %7s %8s %7s %-14s %7.1f %6s' "$f" "$toolchain" "$covered" "$expanded" \
		"$configs" "$pinned" "$time_s" "$cpu_s")"
	if test "$expanded" != failed && test "$expanded" != -; then
		tot_tc=$((tot_tc + toolchain)) tot_cov=$((tot_cov + covered)) tot_exp=$((tot_exp + expanded))
		tot_cfg=$((tot_cfg + configs)) n=$((n + 1))
		tot_time=$(echo "$tot_time + $time_s" | bc)
	fi
done
say "$(printf '%-26s %9s %7s %8s %7s %-14s %7.1f' "total ($n files)" "$tot_tc" "$tot_cov" "$tot_exp" \
	"$tot_cfg" "" "$tot_time")"
