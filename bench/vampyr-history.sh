#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git vampyr --build on real history: the newest N non-merge U-Boot commits
# that change `#if` lines in C files. For each commit, the objects of the C
# files it changes are built at the commit and at its parent, in
#   (a) the default configuration of what it touches: the defconfig of the
#       board (board/<vendor>/<board>/: a defconfig that sets the TARGET_ its
#       Kconfig starts with, else one whose name has the board's) or of the
#       SoC (arch/*/mach-<x>/: one that sets its ARCH_, else one named after
#       it), the first in name order; elsewhere under arch/<arch>/, the QEMU
#       board U-Boot's CI runs for that architecture (qemu_arm64_defconfig,
#       qemu_arm_defconfig, qemu-riscv64_defconfig, ...); else
#       sandbox_defconfig, the board U-Boot's own CI and tests build;
#   (b) vampyr's configurations, expanded by the tree's own kconfig;
# and the diagnostics the commit adds are counted in each, with those only
# (b) found listed for review. Cross compilers (make deps: gcc-aarch64-linux-gnu,
# gcc-arm-linux-gnueabihf, gcc-riscv64-linux-gnu) come in through the build
# command, bench/cross-make.sh. Heavy: run it alone, under nice.
#
#   bench/vampyr-history.sh [N]          (default 30)
#
# VAMPYR_HISTORY_KEEP_A=1 reruns only (b): a commit's (a) run is taken from
# its default.json and default.err of an earlier run in the same directory
# (its time printed as "kept"), and run only where there is none.
#
# The repository: $UBOOT_GIT (default the fetched mirror), borrowed through
# objects/info/alternates by a bare repository under $BENCH_WORK (never written
# into); the newest commit is $UBOOT_TIP. Results: a table on stdout and in
# $BENCH_WORK/vampyr-history/results.txt; each run's JSON and stderr beside it.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
n=${1:-30}
out=$work/vampyr-history
repo=$out/u-boot.git
mkdir -p "$out"
bench_log=$out/results.txt
for c in aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc riscv64-linux-gnu-gcc flex bison; do
	command -v "$c" >/dev/null || { echo "vampyr-history: $c missing: make deps" >&2; exit 1; }
done
uboot_repo "$repo" vampyr-history
export GIT_DIR=$repo
unset GIT_WORK_TREE
cross=$bench_dir/cross-make.sh
# Builds of one .config and the same sources give the same output: the
# default configuration is the same for every fragment of a commit, so its
# builds after the first are replayed (bench/cross-make.sh, VAMPYR_BENCH_CACHE,
# keyed by the commit too: the headers are the commit's).
export VAMPYR_BENCH_CACHE=$out/build-cache
mkdir -p "$VAMPYR_BENCH_CACHE"

# The newest n commits whose diff adds or removes a conditional directive in a .c file.
commits=$(git log --no-merges --format='COMMIT %H' -p --unified=0 -n $((n * 20)) HEAD -- '*.c' |
	awk '/^COMMIT /{c=$2} /^[+-][ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)/ && c != last {print c; last=c}' |
	head -n "$n")

# default_config <commit>: the defconfig of the board or SoC its first
# such changed file belongs to, else sandbox_defconfig.
default_config () {
	local c=$1 f dir sym def name
	for f in $(git diff-tree --no-commit-id -r --name-only "$c^" "$c" -- '*.c'); do
		case $f in
		board/*/*/*) dir=$(echo "$f" | cut -d/ -f1-3) ;;
		arch/*/mach-*/*) dir=$(echo "$f" | cut -d/ -f1-3) ;;
		*) continue ;;
		esac
		sym=$(git show "$c:$dir/Kconfig" 2>/dev/null | sed -n 's/^if[ \t]\+\([A-Z0-9_]\+\)[ \t]*$/\1/p' | head -n 1)
		def=
		if test -n "$sym"; then
			def=$(git grep -l "^CONFIG_$sym=y" "$c" -- configs/ 2>/dev/null | sed 's/^[^:]*:configs\///' | sort | head -n 1)
		fi
		# No Kconfig of its own (board/xilinx/versal): a defconfig named after the directory.
		name=${dir##*/}
		name=${name#mach-}
		if test -z "$def" && test "$name" != common; then
			def=$(git ls-tree --name-only "$c" configs/ | sed 's/^configs\///' | grep -F -- "$name" | grep '_defconfig$' | sort | head -n 1)
		fi
		test -n "$def" && { echo "$def"; return; }
	done
	# Elsewhere in an architecture's directory: the QEMU board U-Boot's CI runs for it.
	for f in $(git diff-tree --no-commit-id -r --name-only "$c^" "$c" -- '*.c'); do
		case $f in
		arch/arm/cpu/armv8/*|arch/arm/mach-*/*64*) def=qemu_arm64_defconfig ;;
		arch/arm/*) def=qemu_arm_defconfig ;;
		arch/riscv/*) def=qemu-riscv64_defconfig ;;
		arch/x86/*) def=qemu-x86_64_defconfig ;;
		arch/powerpc/*) def=qemu-ppce500_defconfig ;;
		arch/mips/*) def=malta_defconfig ;;
		*) continue ;;
		esac
		git cat-file -e "$c:configs/$def" 2>/dev/null && { echo "$def"; return; }
	done
	echo sandbox_defconfig
}

summary () {
	python3 - "$@" <<-\PY
	import json, sys
	try:
	    r = json.load(open(sys.argv[1]))
	except Exception:
	    print("- - -")
	    sys.exit(0)
	w = r.get("warnings", [])
	print(len(r.get("configs", [])), r.get("blocks_covered_expanded", 0), len(w))
	PY
}

say "== bench/vampyr-history.sh $(date -u '+%F %T') UTC, $(nproc) cores, $(git vampyr --version), $(gcc --version | head -n 1), tip $(git log -1 --format=%h HEAD)"
table="| commit | default | (a) diagnostics | configurations | blocks kept | (b) diagnostics | only (b) | time (a) | time (b) |"
say "$table"
say "|---|---|---|---|---|---|---|---|---|"
tot_a=0 tot_b=0 tot_only=0 tot_cfg=0 count=0
for c in $commits; do
	short=$(git rev-parse --short=11 "$c")
	def=$(default_config "$c")
	d=$out/$short
	export VAMPYR_BENCH_KEY=$c
	if test -n "${VAMPYR_HISTORY_KEEP_A:-}" && test -s "$d/default.json"; then
		rm -rf "$d/vampyr" "$d/vampyr.json" "$d/vampyr.err" "$d/vampyr.only"
		ta=kept
	else
		rm -rf "$d" && mkdir -p "$d"
		SECONDS=0
		nice git vampyr --commit "$c" --no-notes --format=json -o "$d/default" \
			--kconfig="$cross -s $def" --build="$cross -s -k -j2" \
			>"$d/default.json" 2>"$d/default.err" || true
		ta="$SECONDS s"
	fi
	SECONDS=0
	nice git vampyr --commit "$c" --no-notes --format=json -o "$d/vampyr" \
		--kconfig="$cross -s alldefconfig" --build="$cross -s -k -j2" \
		>"$d/vampyr.json" 2>"$d/vampyr.err" || true
	tb=$SECONDS
	read -r _ _ wa < <(summary "$d/default.json")
	read -r cfg kept wb < <(summary "$d/vampyr.json")
	only=$(python3 - "$d/default.json" "$d/vampyr.json" <<-\PY
	import json, re, sys
	def texts(p):
	    try:
	        return [w["text"] for w in json.load(open(p)).get("warnings", [])]
	    except Exception:
	        return []
	key = lambda t: re.sub(r":\d+:\d+:", ":", t)
	a = {key(t) for t in texts(sys.argv[1])}
	only = [t for t in texts(sys.argv[2]) if key(t) not in a]
	open(sys.argv[2].replace(".json", ".only"), "w").write("".join(t + "\n" for t in only))
	print(len(only))
	PY
	)
	say "| $short | $def | $wa | $cfg | $kept | $wb | $only | ${ta} | ${tb} s |"
	sed 's/^/    only (b): /' "$d/vampyr.only" | tee -a "$bench_log" >&3
	count=$((count + 1))
	case $wa in [0-9]*) tot_a=$((tot_a + wa)) ;; esac
	case $wb in [0-9]*) tot_b=$((tot_b + wb)) ;; esac
	case $cfg in [0-9]*) tot_cfg=$((tot_cfg + cfg)) ;; esac
	tot_only=$((tot_only + only))
done
say "total: $count commits, $tot_cfg vampyr configurations; the commits add $tot_a diagnostics in (a), $tot_b in (b), $tot_only found only by (b)"
