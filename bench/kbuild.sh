#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kbuild file-condition map on Linux 6.1 (x86): how long it takes to build,
# and whether it is sound against kbuild itself.
#
# For allnoconfig, defconfig and $NRAND randconfigs made by the kernel's own
# tools (make ARCH=x86 randconfig with KCONFIG_SEED=1..N), kbuild is asked
# which objects it selects without compiling anything (bench/kbuild-list.mk
# reads each directory's Makefile the way scripts/Makefile.build does and
# prints its lists, descending as kbuild would). Then, per configuration:
#   unsound  files kbuild compiles whose condition is false under .config (must be 0)
#   exact    share of .c/.S files whose condition is exactly right: true for the
#            ones kbuild compiles, false for the others (a free variable is not exact)
#
#   bench/kbuild.sh            everything
#   NRAND=3 bench/kbuild.sh    fewer randconfigs
#
# Environment: LINUX (a 6.1 source tree, default /work/linux-6.1), LINUX_GIT (a
# repository with a v6.1 tag, for timing the map from the object store; optional),
# BENCH_WORK (default bench/work), UT_BUILD_DIR (default build).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
work=${BENCH_WORK:-$here/work}/kbuild
linux=${LINUX:-/work/linux-6.1}
nrand=${NRAND:-20}
helper=${UT_BUILD_DIR:-$top/build}/t/helper/test-kbuild
results=$work/results.txt

test -x "$helper" || { echo "kbuild.sh: build first (make)" >&2; exit 1; }
test -f "$linux/Kbuild" || { echo "kbuild.sh: no Linux tree at $linux (set LINUX)" >&2; exit 1; }
mkdir -p "$work/configs" "$work/lists" "$work/scratch"
rm -f "$work/lists/kinds"
: >"$results"
say () { printf '%s\n' "$*" | tee -a "$results"; }

say "# kbuild map on $(basename "$linux") ($(date -u +%F))"

# --- time to build the whole x86 map ---
for run in 1 2; do
	"$helper" --arch=x86 --stats "$linux" >"$work/map.txt" 2>"$work/map.stats"
done
say "map from the file system: $(cat "$work/map.stats")"
if test -n "${LINUX_GIT:-}"; then
	GIT_DIR=$LINUX_GIT "$helper" --arch=x86 --stats --rev=v6.1 >/dev/null 2>"$work/git.stats"
	say "map from the object store (v6.1): $(tail -n 1 "$work/git.stats")"
	GIT_DIR=$LINUX_GIT "$helper" --arch=x86 --stats --rev=v6.1 --rev=v6.1 >/dev/null 2>"$work/git.stats"
	say "again, every Makefile from the cache: $(tail -n 1 "$work/git.stats")"
fi

# --- configurations, made by the kernel's own kconfig ---
obj=$work/obj
kmake () { make -s -C "$linux" O="$obj" ARCH=x86 "$@" >/dev/null 2>&1; }
configs="allnoconfig defconfig"
for s in $(seq 1 "$nrand"); do configs="$configs rand$s"; done
for c in $configs; do
	test -s "$work/configs/$c.auto" && continue
	case $c in
	rand*) KCONFIG_SEED=${c#rand} kmake randconfig ;;
	*) kmake "$c" ;;
	esac
	cp "$obj/.config" "$work/configs/$c.config"
	# what syncconfig would write to include/config/auto.conf: the set symbols
	grep '^CONFIG_' "$obj/.config" >"$work/configs/$c.auto"
done

# --- what kbuild selects: breadth first, as Makefile.build descends ---
list_config () {
	local auto=$1 out=$2 dir nb line kind path flag
	declare -A seen=()
	local -a queue=(". 1")
	eval "$(cd "$work/scratch" && make -s -r -R -I "$linux" -f "$here/kbuild-top.mk" srctree="$linux" ARCH=x86 KCONFIG_AUTO="$auto" 2>/dev/null)"
	export ARCH=x86 SRCARCH ARCH_CORE ARCH_LIB ARCH_DRIVERS BITS srctree="$linux" objtree=.
	: >"$out"
	: >"$out.err"
	while ((${#queue[@]})); do
		read -r dir nb <<<"${queue[0]}"
		queue=("${queue[@]:1}")
		while read -r kind path flag; do
			path=${path#./}
			case $kind in
			D)
				if test -z "${seen[$path]:-}" || { test "$flag" = 1 && test "${seen[$path]}" = 0; }; then
					seen[$path]=$flag
					queue+=("$path $flag")
				fi ;;
			B|M|L|X) echo "$kind $path" >>"$out" ;;
			esac
		done < <(cd "$work/scratch" && make -s -r -R -I "$linux" -f "$here/kbuild-list.mk" \
				srctree="$linux" obj="$dir" need-builtin="$( ((nb)) && echo 1)" \
				KCONFIG_AUTO="$auto" 2>>"$out.err" || echo "make failed in $dir" >>"$out.err")
	done
}

say ""
say "config	selected	unsound	exact	exact(listed)	over"
total_unsound=0
for c in $configs; do
	if ! test -s "$work/lists/$c.objs"; then
		list_config "$work/configs/$c.auto" "$work/lists/$c.objs.tmp"
		mv "$work/lists/$c.objs.tmp.err" "$work/lists/$c.objs.err"
		mv "$work/lists/$c.objs.tmp" "$work/lists/$c.objs"
	fi
	# kbuild's listing must be complete for the comparison to mean anything
	if test -s "$work/lists/$c.objs.err"; then
		say "$c: kbuild's listing had errors, see $work/lists/$c.objs.err"
	fi
	# objects -> their sources in the tree
	# (amdgpu names its parts ../pm/...: normalize dir/../)
	awk '{ sub(/\.o$/, "", $2); print $2 }' "$work/lists/$c.objs" |
		sed -e ':a' -e 's#[^/.][^/]*/\.\./##' -e 'ta' -e 's#/\./#/#g' | sort -u |
		while read -r stem; do
			for ext in c S; do
				if test -f "$linux/$stem.$ext"; then echo "$stem.$ext"; fi
			done
		done | sort -u >"$work/lists/$c.selected"
	"$helper" --arch=x86 --eval="$work/configs/$c.config" "$linux" >"$work/lists/$c.eval" 2>/dev/null
	test -s "$work/lists/kinds" || "$helper" --arch=x86 --kind "$linux" >"$work/lists/kinds" 2>/dev/null
	awk -F'\t' -v sel="$work/lists/$c.selected" -v kinds="$work/lists/kinds" \
		-v unsound_out="$work/lists/$c.unsound" '
		BEGIN { while ((getline l < sel) > 0) s[l] = 1
			while ((getline l < kinds) > 0) { split(l, f, "\t"); kind[f[1]] = f[3] } }
		{ v = $2; p = $1; n++
		  if (kind[p] == "object") nl++
		  if (p in s) { sc++; if (v == "n") { bad++; print p > unsound_out }
				if (v == "y") { ex++; if (kind[p] == "object") exl++ } }
		  else { if (v == "n") { ex++; if (kind[p] == "object") exl++ } else over++ } }
		END { printf "%d\t%d\t%.2f%%\t%.2f%%\t%d\n", sc, bad, 100 * ex / n, nl ? 100 * exl / nl : 0, over }
	' "$work/lists/$c.eval" >"$work/lists/$c.row"
	say "$c	$(cat "$work/lists/$c.row")"
	total_unsound=$((total_unsound + $(cut -f2 "$work/lists/$c.row")))
done
say ""
say "unsound files over all configurations: $total_unsound (lists in $work/lists/*.unsound)"
