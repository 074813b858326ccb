#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Soundness and speed of our Kconfig model on Linux, against the kernel's own kconfig.
#
#   bench/kconfig.sh [-n <randconfigs>] [--versions "6.1 6.12"] [--arches "x86 arm64 riscv"]
#                    [--no-check] [--no-timing] [--mutants N]
#
# 1. Configurations, made by the kernel itself in an extracted tree (only scripts/kconfig
#    is built, in O=bench/work/kconfig/<version>/<arch>/build): allnoconfig, allyesconfig,
#    allmodconfig, defconfig and N randconfigs (KCONFIG_SEED=1..N). Cached.
# 2. Each one checked against `git --git-dir="$repo" undertaker --dump-model=dimacs --arch=<a> v<version>` of
#    the bench repository (bench/linux-repo.sh) with bench/check-config.py and picosat:
#    "tried N, accepted M" per version and architecture.
# 3. Model building time and peak memory: ours for x86 and for every architecture, beside
#    Kconfiglib (python3-kconfiglib) and the kernel's `conf --olddefconfig` on the same tree.
# 4. With --mutants N (and not by default): precision and soundness together, on N
#    one-symbol changes of each defconfig, against the kernel's conf --olddefconfig
#    (bench/kconfig-mutants.py): conf keeps it -> the model must accept it; conf
#    changes it -> the model should reject it.
# Results are appended to bench/work/kconfig/results.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

nrand=${BENCH_RANDCONFIGS:-100}
versions="6.1 6.12"
arches="x86 arm64 riscv"
do_check=1
do_timing=1
nmut=0
while test $# -gt 0; do
	case "$1" in
	-n) nrand=$2; shift ;;
	--versions) versions=$2; shift ;;
	--arches) arches=$2; shift ;;
	--no-check) do_check= ;;
	--no-timing) do_timing= ;;
	--mutants) nmut=$2; shift ;;
	*) echo "usage: bench/kconfig.sh [-n N] [--versions V] [--arches A] [--no-check] [--no-timing] [--mutants N]" >&2; exit 129 ;;
	esac
	shift
done

kwork=$work/kconfig
mkdir -p "$kwork"
bench_log=$kwork/results.txt
say "== bench/kconfig.sh $(date -u '+%F %T') UTC, $nrand randconfigs, versions: $versions, arches: $arches"

repo=$("$bench_dir/linux-repo.sh")

# make_config <tree> <out> <arch> <target> <dest> [env...]: the kernel's own make.
make_config () {
	local tree=$1 out=$2 arch=$3 target=$4 dest=$5
	shift 5
	if test -s "$dest"; then
		return 0
	fi
	if ! env "$@" make -s -C "$tree" O="$out" ARCH="$arch" "$target" >"$dest.log" 2>&1; then
		return 1
	fi
	cp "$out/.config" "$dest"
}

gen_configs () {
	local v=$1 a=$2 tree out cfg t i start failed
	tree=$("$bench_dir/linux-repo.sh" --tree "$v")
	out=$kwork/$v/$a/build
	cfg=$kwork/$v/$a/configs
	mkdir -p "$out" "$cfg"
	start=$(date +%s)
	failed=()
	for t in allnoconfig allyesconfig allmodconfig defconfig; do
		make_config "$tree" "$out" "$a" "$t" "$cfg/$t.config" || failed+=("$cfg/$t.config.log")
	done
	for i in $(seq 1 "$nrand"); do
		make_config "$tree" "$out" "$a" randconfig "$cfg/rand-$i.config" KCONFIG_SEED=$i ||
			failed+=("$cfg/rand-$i.config.log")
	done
	if test ${#failed[@]} -gt 0; then
		say "$v $a: make failed for ${#failed[@]} configurations (they are left out), e.g. ${failed[0]}"
	fi
	note "configs for $v/$a ready ($(($(date +%s) - start)) s)"
}

# The model of one version and architecture, cached as a file beside the configs.
dump_model () {
	local v=$1 a=$2 m=$kwork/$v/$a/model.cnf bin
	# A model made by an older build of ours is stale: it is made again.
	bin=$(command -v git-undertaker || true)
	if test -n "$bin" && test -s "$m" && test "$bin" -nt "$m"; then
		rm -f "$m"
	fi
	if ! test -s "$m"; then
		git --git-dir="$repo" undertaker --dump-model=dimacs --arch="$a" "v$v" >"$m.tmp" &&
			mv "$m.tmp" "$m" || { rm -f "$m.tmp"; return 1; }
	fi
	echo "$m"
}

check_configs () {
	local v=$1 a=$2 m res
	if ! m=$(dump_model "$v" "$a"); then
		say "$v $a: git undertaker --dump-model failed; not checked"
		return 0
	fi
	res=$kwork/$v/$a/check.txt
	"$bench_dir/check-config.py" -q "$m" "$kwork/$v/$a/configs/"*.config >"$res" || true
	{ grep '^REJECTED' "$res" || true; } | head -n 5 | sed 's/^/    /' | tee -a "$bench_log"
	local nr
	nr=$(find "$kwork/$v/$a/configs" -name 'rand-*.config' | wc -l)
	say "$v $a: $(tail -n 1 "$res") (DIMACS + picosat; the all*/defconfig targets and $nr randconfigs; details in $res)"
	# A second opinion with Kconfig-level reasons: the model's own check (a test helper),
	# on the extracted tree rather than the object store.
	if test -x "$build_dir/t/helper/test-model"; then
		local tree own=$kwork/$v/$a/check-own.txt
		tree=$("$bench_dir/linux-repo.sh" --tree "$v")
		"$build_dir/t/helper/test-model" --arch="$a" "$tree" check "$kwork/$v/$a/configs/"*.config \
			>"$own" 2>&1 || true
		say "$v $a: test-model check: $(grep -c ': ok$' "$own" || true) ok, $(grep -c ': rejected$' "$own" || true) rejected (reasons in $own)"
		{ grep -A3 ': rejected$' "$own" || true; } | head -n 8 | sed 's/^/    /' | tee -a "$bench_log"
	fi
}

# The environment the kernel's Makefile exports to kconfig, for running conf and
# Kconfiglib directly (toolchain probes run for real there, as they do in make).
kconfig_env () {
	local tree=$1 a=$2 srcarch=$2
	case "$a" in
	i386|x86_64) srcarch=x86 ;;
	esac
	# The tools too: some probes run them (6.12's TOOLS_SUPPORT_RELR wants NM and OBJCOPY).
	echo srctree="$tree" ARCH="$a" SRCARCH="$srcarch" CC=gcc LD=ld HOSTCC=gcc HOSTCXX=g++ \
		AR=ar NM=nm STRIP=strip OBJCOPY=objcopy OBJDUMP=objdump READELF=readelf PAHOLE=pahole \
		RUSTC=rustc BINDGEN=bindgen KERNELVERSION="$(make -s -C "$tree" kernelversion 2>/dev/null)"
}

if test -n "$do_check"; then
	can_dump=
	if has_undertaker_feature --dump-model=dimacs --arch=x86; then
		can_dump=1
	else
		say "SKIP model checks: git undertaker --dump-model=dimacs is not available yet (configs are still made)"
	fi
	for v in $versions; do
		for a in $arches; do
			gen_configs "$v" "$a"
			if test -n "$can_dump"; then
				check_configs "$v" "$a"
			fi
		done
	done
fi

if test "$nmut" -gt 0 && has_undertaker_feature --dump-model=dimacs --arch=x86; then
	for v in $versions; do
		for a in $arches; do
			gen_configs "$v" "$a"
			m=$(dump_model "$v" "$a") || continue
			tree=$("$bench_dir/linux-repo.sh" --tree "$v")
			res=$kwork/$v/$a/mutants.txt
			# conf's environment as kbuild exports it; CC_VERSION_TEXT has spaces.
			env $(kconfig_env "$tree" "$a") CC_VERSION_TEXT="$(gcc --version | head -n 1)" \
				"$bench_dir/kconfig-mutants.py" -n "$nmut" "$m" "$kwork/$v/$a/build" \
				"$kwork/$v/$a/configs/defconfig.config" >"$res" 2>&1 || true
			{ grep -E '^(UNSOUND|IMPRECISE)' "$res" || true; } | head -n 5 | sed 's/^/    /' | tee -a "$bench_log"
			say "$v $a: defconfig $(tail -n 1 "$res") (details in $res)"
		done
	done
fi

test -n "$do_timing" || exit 0


# Kconfiglib 14.1 stops at the bare `modules` keyword (Linux 6.x writes `modules` where
# older trees had `option modules`): a temporary copy of it takes `modules` as that.
kconfiglib_dir=$kwork/kconfiglib
mkdir -p "$kconfiglib_dir"
kl_src=$($sys_python -c 'import kconfiglib; print(kconfiglib.__file__)' 2>/dev/null || true)
if test -n "$kl_src"; then
	sed 's/^            elif t0 is _T_OPTION:$/            elif t0 is _T_MODULES:\n                pass  # bench: bare "modules" = "option modules"\n\n&/' \
		"$kl_src" >"$kconfiglib_dir/kconfiglib.py"
	grep -q 'bench: bare "modules"' "$kconfiglib_dir/kconfiglib.py" ||
		note "could not patch Kconfiglib for 'modules'; it may fail on Linux 6.x"
fi

# ratio: the last timed command against our cold x86 model, in wall and in CPU time
# (the machine may be shared: CPU time is the steadier figure).
ratio () {
	test -n "$ours_wall" || return 0
	echo " ($(echo "scale=1; $timed_wall / $ours_wall" | bc)x our x86 model's wall time, $(echo "scale=1; $timed_cpu / $ours_cpu" | bc)x its CPU time)"
}

for v in $versions; do
	tree=$("$bench_dir/linux-repo.sh" --tree "$v")
	ours_wall= ours_cpu=
	say "-- Linux $v, model building"
	# Ours: cold (no model kept under $GIT_DIR/undertaker/) then warm.
	if has_undertaker_feature --dump-model=dimacs --arch=x86; then
		rm -rf "$repo/undertaker"
		timed "  git undertaker --dump-model=dimacs --arch=x86 v$v (cold)" \
			git --git-dir="$repo" undertaker --dump-model=dimacs --arch=x86 "v$v" >"$kwork/model-$v-x86.cnf" || true
		ours_wall=$timed_wall ours_cpu=$timed_cpu
		timed "  git undertaker --dump-model=dimacs --arch=x86 v$v (warm)" \
			git --git-dir="$repo" undertaker --dump-model=dimacs --arch=x86 "v$v" >/dev/null || true
		say "  x86 model: $(grep -c '^c CONFIG_' "$kwork/model-$v-x86.cnf" || true) symbol variables, $(grep -m1 '^p cnf' "$kwork/model-$v-x86.cnf" || echo 'no p line')"
		rm -rf "$repo/undertaker"
		if has_undertaker_feature --dump-model=dimacs --arch=all; then
			timed "  git undertaker --dump-model=dimacs --arch=all v$v (cold)" \
				git --git-dir="$repo" undertaker --dump-model=dimacs --arch=all "v$v" >/dev/null || true
		else
			# No --arch=all: one run per architecture of the tree, summed.
			total=0 cpu=0 peak=0 n=0
			for a in $(git --git-dir="$repo" ls-tree --name-only "v$v:arch/"); do
				git --git-dir="$repo" cat-file -e "v$v:arch/$a/Kconfig" 2>/dev/null || continue
				timed "    --arch=$a" git --git-dir="$repo" undertaker --dump-model=dimacs --arch="$a" "v$v" >/dev/null || true
				total=$(echo "$total + $timed_wall" | bc)
				cpu=$(echo "$cpu + $timed_cpu" | bc)
				if ((timed_mb > peak)); then peak=$timed_mb; fi
				n=$((n + 1))
			done
			say "  git undertaker --dump-model=dimacs, all $n architectures one by one (cold): $total s wall ($cpu s CPU) in total, $peak MB peak RSS"
		fi
		# All architectures in one process sharing one parse cache, as a command that
		# checks every architecture does (on the extracted tree: the test helper).
		if test -x "$build_dir/t/helper/test-model"; then
			timed "  all architectures in one process (test-model --all-arches stats, extracted tree)" \
				"$build_dir/t/helper/test-model" --all-arches "$tree" stats 2>"$kwork/stats-$v.out" || true
			say "    $(tail -n 1 "$kwork/stats-$v.out")"
		fi
	else
		say "  SKIP ours: git undertaker --dump-model=dimacs is not available yet"
	fi
	# Kconfiglib, on the same tree, x86.
	if test -f "$kconfiglib_dir/kconfiglib.py"; then
		timed "  Kconfiglib 14.1 (patched for 'modules') parsing x86 Kconfig" \
			env $(kconfig_env "$tree" x86) PYTHONPATH="$kconfiglib_dir" $sys_python -c \
			'import kconfiglib; k = kconfiglib.Kconfig("Kconfig", warn=False); print(len(k.unique_defined_syms), "symbols")' \
			>"$kwork/kconfiglib-$v.out" || true
		say "  Kconfiglib: $(cat "$kwork/kconfiglib-$v.out")$(ratio)"
		# Every symbol Kconfiglib finds, with its type, against ours (--dump-model=symbols).
		env $(kconfig_env "$tree" x86) PYTHONPATH="$kconfiglib_dir" $sys_python -c '
import kconfiglib
k = kconfiglib.Kconfig("Kconfig", warn=False)
for s in k.unique_defined_syms:
    print("CONFIG_%s %s" % (s.name, kconfiglib.TYPE_TO_STR[s.orig_type]))' |
			sort >"$kwork/kconfiglib-$v-x86.symbols" || true
		if git --git-dir="$repo" undertaker --dump-model=symbols --arch=x86 "v$v" 2>/dev/null |
			awk '{ print $1, $2 }' | sort >"$kwork/ours-$v-x86.symbols" &&
			test -s "$kwork/ours-$v-x86.symbols"; then
			say "  symbols with their type: Kconfiglib $(wc -l <"$kwork/kconfiglib-$v-x86.symbols"), ours $(wc -l <"$kwork/ours-$v-x86.symbols"), only Kconfiglib's: $(comm -23 "$kwork/kconfiglib-$v-x86.symbols" "$kwork/ours-$v-x86.symbols" | wc -l), only ours: $(comm -13 "$kwork/kconfiglib-$v-x86.symbols" "$kwork/ours-$v-x86.symbols" | wc -l)"
			comm -3 "$kwork/kconfiglib-$v-x86.symbols" "$kwork/ours-$v-x86.symbols" | head -n 6 | sed 's/^/    differs: /' | tee -a "$bench_log"
		else
			say "  SKIP symbol comparison: git undertaker --dump-model=symbols gave nothing"
		fi
	else
		say "  SKIP Kconfiglib: python3-kconfiglib is not installed"
	fi
	# The kernel's own conf on the defconfig made above: conf alone, and make around it.
	# Its own build directory, so that it never races with the configurations above.
	out=$kwork/$v/x86/timing
	mkdir -p "$out"
	make_config "$tree" "$out" x86 defconfig "$out/defconfig.config" || true
	cp "$out/defconfig.config" "$out/.config"
	timed "  conf --olddefconfig (the kernel's own, x86 defconfig)" \
		env -C "$out" $(kconfig_env "$tree" x86) scripts/kconfig/conf --olddefconfig Kconfig >/dev/null || true
	say "  conf --olddefconfig:$(ratio)"
	timed "  make ARCH=x86 olddefconfig (kbuild around conf)" \
		make -s -C "$tree" O="$out" ARCH=x86 olddefconfig >/dev/null || true
done
