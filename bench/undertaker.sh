#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git undertaker on Linux (the bench repository of bench/linux-repo.sh):
#   1. the whole-tree census `git undertaker --all v6.1` for x86: time, peak memory,
#      defects per kind, cause and scope;
#   2. the v6.1..v6.12 commit (every changed C file, and the Kconfig changes): cold, then
#      again once its note is written (skipped), then with --force and the model cached;
#      on as many threads as the machine has CPUs (git undertaker's default -j);
#   3. typical commits: a series of ten one-hunk commits on v6.1 (bench/make-series.py,
#      real hunks of v6.1..v6.12 that touch #if lines): each commit alone in a fresh
#      process (cold, then with the kept solver samples), and the whole series in one
#      run (the model built once), for x86 and for all architectures;
#   4. the kernel's scripts/checkkconfigsymbols.py on the same 6.1 tree (time), and its
#      undefined symbols in #if lines of .c/.h/.S files against our `undefined` defects.
#
#   bench/undertaker.sh [--no-census] [--no-range] [--no-series] [--no-checkkconfigsymbols]
#
# Results are appended to bench/work/undertaker/results.txt; the JSON Lines of each run
# are kept beside it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

do_census=1 do_range=1 do_series=1 do_ckks=1
while test $# -gt 0; do
	case "$1" in
	--no-census) do_census= ;;
	--no-range) do_range= ;;
	--no-series) do_series= ;;
	--no-checkkconfigsymbols) do_ckks= ;;
	*) echo "usage: bench/undertaker.sh [--no-census] [--no-range] [--no-series] [--no-checkkconfigsymbols]" >&2; exit 129 ;;
	esac
	shift
done

uwork=$work/undertaker
mkdir -p "$uwork"
bench_log=$uwork/results.txt
say "== bench/undertaker.sh $(date -u '+%F %T') UTC on $(nproc) cores, $(git undertaker --version 2>/dev/null || echo 'git undertaker not built')"
repo=$("$bench_dir/linux-repo.sh")
tree61=$("$bench_dir/linux-repo.sh" --tree 6.1)

# --arch=x86 where the undertaker takes it with --all; otherwise it checks its default.
arch_opt=()
if has_undertaker_feature --all --arch=x86 --format=json; then
	arch_opt=(--arch=x86)
fi

census_json=$uwork/census-v6.1.jsonl
if test -n "$do_census"; then
	if has_undertaker_feature --all --format=json; then
		rc=0
		timed "git undertaker --all ${arch_opt[*]} --format=json v6.1" \
			git --git-dir="$repo" undertaker --all "${arch_opt[@]}" --format=json v6.1 \
			>"$census_json.tmp" 2>"$uwork/census-v6.1.err" || rc=$?
		mv "$census_json.tmp" "$census_json"
		# Exit 1 means findings; anything else is a failure worth showing.
		if test $rc -gt 1; then
			say "  exit $rc: $(tail -n 3 "$uwork/census-v6.1.err")"
		fi
		"$bench_dir/defects.py" count "$census_json" | sed 's/^/  /' | tee -a "$bench_log"
	else
		say "SKIP census: git undertaker --all --format=json is not available yet"
	fi
fi

if test -n "$do_range"; then
	if has_undertaker_feature --format=json HEAD; then
		# Cold: no notes, no kept model.
		git --git-dir="$repo" update-ref -d refs/notes/undertaker 2>/dev/null || true
		rm -rf "$repo/undertaker"
		rc=0
		# The whole 6.1 -> 6.12 step is one commit: every changed C file, and the files
		# its Kconfig changes affect, before and after; --arch=x86 as for the census.
		timed "git undertaker ${arch_opt[*]} --format=json v6.1..v6.12 (cold)" \
			git --git-dir="$repo" undertaker "${arch_opt[@]}" --format=json v6.1..v6.12 \
			>"$uwork/range.jsonl" 2>"$uwork/range.err" || rc=$?
		test $rc -le 1 || say "  exit $rc: $(tail -n 3 "$uwork/range.err")"
		"$bench_dir/defects.py" count "$uwork/range.jsonl" | sed 's/^/  /' | tee -a "$bench_log"
		rc=0
		timed "git undertaker ${arch_opt[*]} v6.1..v6.12 again (its note is there: skipped)" \
			git --git-dir="$repo" undertaker "${arch_opt[@]}" v6.1..v6.12 >/dev/null 2>&1 || rc=$?
		rc=0
		timed "git undertaker ${arch_opt[*]} --force v6.1..v6.12 (solver samples kept from the first run)" \
			git --git-dir="$repo" undertaker "${arch_opt[@]}" --force v6.1..v6.12 >/dev/null 2>&1 || rc=$?
		say "  note on v6.12: $(git --git-dir="$repo" notes --ref=undertaker show v6.12 2>/dev/null | tail -n 1 || echo none)"
	else
		say "SKIP v6.1..v6.12: git undertaker --format=json <range> is not available yet"
	fi
fi

if test -n "$do_series"; then
	series_files="kernel/sched/core.c kernel/fork.c mm/page_alloc.c mm/slub.c fs/namei.c
		net/core/dev.c kernel/printk/printk.c drivers/base/core.c kernel/time/timekeeping.c kernel/cpu.c"
	# shellcheck disable=SC2086
	$sys_python "$bench_dir/make-series.py" "$repo" v6.1 v6.12 bench-series $series_files >/dev/null
	n=$(git --git-dir="$repo" rev-list --count v6.1..bench-series)
	for arch in --arch=x86 all; do
		a=(); test "$arch" = all || a=("$arch")
		rm -rf "$repo/undertaker/samples"
		for pass in cold warm; do
			total=0
			for c in $(git --git-dir="$repo" rev-list --reverse v6.1..bench-series); do
				/usr/bin/time -f '%U %S' -o "$uwork/t" git --git-dir="$repo" undertaker --no-notes "${a[@]}" "$c^!" \
					>/dev/null 2>&1 || true
				total=$(awk -v t="$total" '{ print t + $1 + $2 }' "$uwork/t")
			done
			say "$n typical commits, each alone ($arch, $pass samples): $(awk -v t="$total" -v n="$n" 'BEGIN { printf "%.2f", t / n }') s CPU per commit"
		done
		rc=0
		timed "git undertaker ${a[*]} v6.1..bench-series ($n commits in one run)" \
			git --git-dir="$repo" undertaker --no-notes "${a[@]}" v6.1..bench-series >/dev/null 2>&1 || rc=$?
		say "  $(awk -v u="$timed_user" -v s="$timed_sys" -v n="$n" 'BEGIN { printf "%.2f", (u + s) / n }') s CPU per commit"
	done
fi

if test -n "$do_ckks"; then
	ckks_out=$uwork/checkkconfigsymbols-v6.1.out
	# The script lists files with `git ls-files` in the current directory: give it the
	# extracted tree as work tree and an index of v6.1, without a checkout.
	index=$uwork/index-v6.1
	GIT_DIR=$repo GIT_INDEX_FILE=$index git read-tree v6.1
	if ! test -s "$ckks_out"; then
		timed "scripts/checkkconfigsymbols.py on v6.1 (whole tree, $(nproc) processes)" \
			env -C "$tree61" GIT_DIR="$repo" GIT_WORK_TREE="$tree61" GIT_INDEX_FILE="$index" \
			$sys_python scripts/checkkconfigsymbols.py --no-color >"$ckks_out.tmp" 2>"$ckks_out.err"
		mv "$ckks_out.tmp" "$ckks_out"
		echo "$timed_wall s, $timed_mb MB peak RSS, measured $(date -u '+%F %T') UTC" >"$ckks_out.time"
	else
		say "scripts/checkkconfigsymbols.py on v6.1: kept from an earlier run: $(cat "$ckks_out.time" 2>/dev/null || echo 'time unknown')"
	fi
	if test -s "$census_json"; then
		"$bench_dir/defects.py" compare "$census_json" "$ckks_out" "$tree61" \
			--exclude-prefix tools/ | sed 's/^/  /' | tee -a "$bench_log"
	else
		say "SKIP comparison with checkkconfigsymbols.py: no census (needs git undertaker --all --format=json)"
	fi
fi
