#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git vampyr on Linux 6.1 (the bench repository of bench/linux-repo.sh), x86: for the 20
# C files with the most CONFIG conditionals (outside other architectures' arch/), the
# configurations it needs against its lower bound, the blocks covered before and after
# expansion with the tree's own kconfig (--expand), and the time per file.
#
#   bench/vampyr.sh [-n <files>] [--no-expand] [-- <path>...]
#
# Results are appended to bench/work/vampyr/results.txt; the JSON of each file is kept
# beside it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

nfiles=20
expand=--expand
files=()
while test $# -gt 0; do
	case "$1" in
	-n) nfiles=$2; shift ;;
	--no-expand) expand= ;;
	--) shift; files=("$@"); break ;;
	*) echo "usage: bench/vampyr.sh [-n <files>] [--no-expand] [-- <path>...]" >&2; exit 129 ;;
	esac
	shift
done

vwork=$work/vampyr
mkdir -p "$vwork"
bench_log=$vwork/results.txt
repo=$("$bench_dir/linux-repo.sh")
tree=$("$bench_dir/linux-repo.sh" --tree 6.1)
say "== bench/vampyr.sh $(date -u '+%F %T') UTC, $(git vampyr --version 2>/dev/null || echo 'git vampyr not built')"

if test ${#files[@]} = 0; then
	list=$vwork/files-v6.1-x86.txt
	if ! test -s "$list"; then
		# Conditional directives that name a CONFIG symbol, counted per .c file.
		{
			git --git-dir="$repo" ls-tree -r --name-only v6.1 |
				grep '\.c$' | grep -v -E '^(tools|samples|Documentation|arch)/' || true
			git --git-dir="$repo" ls-tree -r --name-only v6.1 arch/x86 | grep '\.c$' || true
		} | (cd "$tree" && xargs -d '\n' grep -H -c -E '^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif).*CONFIG_') |
			sort -t: -k2,2nr -k1,1 | head -n 100 >"$list" || true
	fi
	mapfile -t files < <(head -n "$nfiles" "$list" | cut -d: -f1)
fi

probe=$(probe_repo)
if ! env -u GIT_DIR git -C "$probe" vampyr --commit HEAD --format=json -o "$work/.probe-vampyr" -- foo.c 2>/dev/null |
	grep -q '"blocks_total"'; then
	say "SKIP: git vampyr --format=json does not work yet (files chosen: $vwork/files-v6.1-x86.txt)"
	exit 0
fi

printf '%-55s %6s %5s %7s %8s %7s %5s %8s\n' file blocks dead covered expanded configs bound seconds | tee -a "$bench_log"
sum_t=0 n=0
for f in "${files[@]}"; do
	out=$vwork/$(echo "$f" | tr '/' '_')
	rm -rf "$out.d"
	rc=0
	timed "  git vampyr --commit v6.1 --arch=x86 $expand -- $f" \
		git --git-dir="$repo" vampyr --commit v6.1 --arch=x86 $expand --format=json -o "$out.d" -- "$f" \
		>"$out.json" 2>"$out.err" || rc=$?
	if test $rc != 0 || ! test -s "$out.json"; then
		say "  $f: exit $rc: $(tail -n 2 "$out.err" | tr '\n' ' ')"
		continue
	fi
	$sys_python - "$out.json" "$f" "$timed_wall" <<-'EOF' | tee -a "$bench_log"
	import json, sys
	v = json.load(open(sys.argv[1]))
	exp = v.get("blocks_covered_expanded")
	print("%-55s %6d %5d %7d %8s %7d %5d %8s" % (sys.argv[2][-55:], v["blocks_total"], v["blocks_dead"],
	      v["blocks_covered"], "-" if exp is None else exp, len(v["configs"]), v["lower_bound"], sys.argv[3]))
	EOF
	sum_t=$(echo "$sum_t + $timed_wall" | bc)
	n=$((n + 1))
done
test $n = 0 || say "$n files, $sum_t s in all ($(echo "scale=2; $sum_t / $n" | bc) s per file, wall)"
