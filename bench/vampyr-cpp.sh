#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git vampyr --expand checked by the kernel's own preprocessor, on the five files
# of Linux 6.1 (x86) with the most conditional directives (the first five of
# bench/vampyr.sh). For each file:
#   1. `git vampyr --commit v6.1 --arch=x86 -- <file>`, then the same with
#      --expand: wall and CPU time against the targets (<= 5 s without
#      --expand, <= 20 s with it for 3 configurations);
#   2. for each configuration, the kernel's build in an O= directory on the
#      6.1 source tree: the expanded .config as .config, `make <file>.i`
#      (syncconfig, prepare and the real preprocessor flags), then that gcc -E
#      command again on a copy of the file with a marker line after the
#      opening directive of every claimed block (bench/vampyr-cpp-check.py):
#      every claim that survived expansion must be in gcc's output, every lost
#      one must not, and must have its reason.
# Heavy (the first configuration builds the kernel's host tools and objtool):
# run it alone, under nice.
#
#   bench/vampyr-cpp.sh [file...]
#
# The source tree: $LINUX_TREE, else `bench/linux-repo.sh --tree 6.1`. Results
# on stdout and in $BENCH_WORK/vampyr-cpp/results.txt, each run's JSON and
# each check's lines beside it.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
repo=${LINUX_REPO:-$("$bench_dir/linux-repo.sh")}
src=${LINUX_TREE:-$("$bench_dir/linux-repo.sh" --tree 6.1)}
export GIT_DIR=$repo
unset GIT_WORK_TREE
out=$work/vampyr-cpp
obj=$out/o
mkdir -p "$out" "$obj"
bench_log=$out/results.txt

files=("$@")
test ${#files[@]} -gt 0 ||
	files=(kernel/sched/core.c mm/page_alloc.c kernel/trace/trace.c mm/slub.c net/core/filter.c)

say "== bench/vampyr-cpp.sh $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(git vampyr --version), $(gcc --version | head -n 1)"
bad=0
for f in "${files[@]}"; do
	name=$(echo "$f" | tr / _)
	say "-- $f"
	timed "  git vampyr (no --expand)" nice git vampyr --commit v6.1 --arch=x86 --no-notes \
		--format=json -o "$out/$name" -- "$f" >"$out/$name.json" 2>"$out/$name.err"
	timed "  git vampyr --expand" nice git vampyr --commit v6.1 --arch=x86 --no-notes --expand \
		--format=json -o "$out/$name.x" -- "$f" >"$out/$name.x.json" 2>"$out/$name.x.err"
	python3 - "$out/$name.x.json" <<-\PY | tee -a "$bench_log" >&3
	import json, sys
	r = json.load(open(sys.argv[1]))
	lost = [b for c in r["configs"] for b in c["lost"]]
	print("  %d configurations (lower bound %d), %d blocks: %d dead, %d ruled out by the toolchain, "
	      "%d claimed, %d compiled after expansion; %d claims lost (%s)"
	      % (len(r["configs"]), r["lower_bound"], r["blocks_total"], r["blocks_dead"],
	         r.get("blocks_toolchain", 0), r["blocks_covered"], r.get("blocks_covered_expanded", 0),
	         len(lost), ", ".join(sorted(set(b["kind"] for b in lost))) or "none"))
	print("  fragments: %s lines" % ", ".join(str(len(c["assignments"])) for c in r["configs"]))
	PY
	git show "v6.1:$f" >"$out/$name.src"
	for config in $(python3 -c 'import json, sys; print(" ".join(c["name"] for c in json.load(open(sys.argv[1]))["configs"]))' "$out/$name.x.json"); do
		cp "$out/$name.x/$config.expanded" "$obj/.config"
		if ! timed "  $config: make O=... ${f%.c}.i" nice make -s -C "$src" O="$obj" ARCH=x86 -j2 "${f%.c}.i" \
			>"$out/$name.$config.make" 2>&1; then
			say "  $config: the kernel's build failed: $(tail -n 3 "$out/$name.$config.make" | tr '\n' ' ')"
			bad=1
			continue
		fi
		if python3 "$bench_dir/vampyr-cpp-check.py" "$out/$name.x.json" "$config" "$src" "$obj" \
			"$out/$name.src" >"$out/$name.$config.check" 2>&1; then
			say "  $(tail -n 1 "$out/$name.$config.check")"
		else
			say "  $config: MISMATCH: $(grep -v '^ok ' "$out/$name.$config.check" | head -n 5 | tr '\n' ' ')"
			bad=1
		fi
	done
done
test $bad = 0 && say "every claim that survived expansion is compiled by gcc -E; every loss has a reason" ||
	say "mismatches above"
exit $bad
