#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The census `git undertaker --all v6.1` on Linux (the bench repository of
# bench/linux-repo.sh): wall time, CPU time (user + sys), peak RSS and the defects per
# kind, cause and scope; then every defect compared with a reference listing, which
# must be the same line for line (a faster census that finds other defects is wrong).
#
#   bench/census.sh [--arch=<arch>|--all-arches] [--cold] [--reference=<file>]
#                   [--save-reference=<file>] [-- <pathspec>...]
#
# --arch=x86 is the default; --all-arches checks every architecture. The census runs
# against a repository of its own that borrows the bench repository's objects, so
# its solver samples ($GIT_DIR/undertaker/) are its own: --cold removes them first.
# The listing (bench/defects.py list) is kept in bench/work/census/ and diffed
# against the reference in bench/census-ref/ named after the run, when there is
# one: v6.1-<arch or all>[-<pathspec, '/' as '-'>].list (v6.1-x86.list for the whole
# tree on x86, v6.1-all-kernel-mm-net.list for `--all-arches -- kernel/ mm/ net/`),
# listings of earlier code (v6.1-x86.list and v6.1-all-kernel-mm-net.list are those
# of the code before issue 16, 7abac19; v6.1-all.list, the whole tree on every
# architecture, that of e6eabd8: no older code was run on it, whose x86 census
# alone took 545 s CPU). --reference=<file> diffs against
# another, --reference= against none; --save-reference writes the listing there.
# Exit 1 when the listings differ.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch_opt=(--arch=x86) label=x86 cold= reference=auto save=
while test $# -gt 0; do
	case "$1" in
	--arch=*) arch_opt=("$1") label=${1#--arch=} ;;
	--all-arches) arch_opt=() label=all ;;
	--cold) cold=1 ;;
	--reference=*) reference=${1#--reference=} ;;
	--save-reference=*) save=${1#--save-reference=} ;;
	--) shift; break ;;
	*) echo "usage: bench/census.sh [--arch=<arch>|--all-arches] [--cold] [--reference=<file>] [--save-reference=<file>] [-- <pathspec>...]" >&2
	   exit 129 ;;
	esac
	shift
done
pathspec=("$@")

cwork=$work/census
mkdir -p "$cwork"
bench_log=$cwork/results.txt
repo=$("$bench_dir/linux-repo.sh")
own=$cwork/linux.git
if ! test -f "$own/bench-complete"; then
	rm -rf "$own"
	git init -q --bare "$own"
	echo "$repo/objects" >"$own/objects/info/alternates"
	git --git-dir="$own" fetch -q "$repo" refs/tags/v6.1:refs/tags/v6.1
	touch "$own/bench-complete"
fi
test -z "$cold" || rm -rf "$own/undertaker"

name=census-v6.1-$label${pathspec[*]:+-$(echo "${pathspec[*]}" | tr -c 'A-Za-z0-9\n' '_')}
if test "$reference" = auto; then
	reference=$bench_dir/census-ref/v6.1-$label
	for p in ${pathspec[@]:+"${pathspec[@]}"}; do
		p=${p%/}
		reference=$reference-${p//\//-}
	done
	reference=$reference.list
	test -f "$reference" || reference=
fi
say "== bench/census.sh $(date -u '+%F %T') UTC on $(nproc) cores, $(git undertaker --version)${cold:+, cold}"
rc=0
UNDERTAKER_STATS=1 timed "git undertaker --all ${arch_opt[*]} v6.1${pathspec[*]:+ -- ${pathspec[*]}}" \
	nice git --git-dir="$own" undertaker --all "${arch_opt[@]}" --format=json v6.1 \
	${pathspec[@]:+-- "${pathspec[@]}"} >"$cwork/$name.jsonl" 2>"$cwork/$name.err" || rc=$?
if test $rc -gt 1; then
	say "  exit $rc: $(tail -n 3 "$cwork/$name.err")"
	exit 1
fi
say "  CPU ${timed_cpu} s (user + sys)"
grep 'solver calls' "$cwork/$name.err" | sed 's/^/  /' | tee -a "$bench_log"
"$bench_dir/defects.py" count "$cwork/$name.jsonl" | sed 's/^/  /' | tee -a "$bench_log"
"$bench_dir/defects.py" list "$cwork/$name.jsonl" >"$cwork/$name.list"
if test -n "$save"; then
	cp "$cwork/$name.list" "$save"
	say "  listing saved as $save"
fi
if test -n "$reference"; then
	if diff -u "$reference" "$cwork/$name.list" >"$cwork/$name.diff"; then
		say "  the same $(wc -l <"$reference") defects as $reference"
	else
		say "  DIFFERENT from $reference: $(grep -c '^[-+][^-+]' "$cwork/$name.diff") lines, see $cwork/$name.diff"
		exit 1
	fi
fi
