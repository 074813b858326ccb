#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git backport beside plain spatch, over a real path of Linux 6.12 with the
# kernel's own scripts/coccinelle rules in patch mode (-D patch):
#
#   correctness  per rule: our preview applied to a checkout is byte for byte
#                what `spatch -D patch --sp-file R --in-place --dir PATH` leaves;
#                whole set: the same as spatch in place rule after rule
#   speed        cold, beside plain spatch rule after rule with the same -j;
#                warm (the cache); v6.12 after v6.1 (spatch only on what differs)
#   filter       the token filter's skip rate
#
# Environment:
#   BENCH_PATH    the path previewed (default drivers/net/wireless/ath)
#   BENCH_RULES   rules to use, paths under scripts/coccinelle separated by spaces
#                 (default: every rule with "virtual patch", in path order)
#   JOBS          -j for both spatch and git backport (default 2)
#   BENCH_WORK    cache directory of bench/linux-repo.sh (default bench/work)
#   BACKPORT_BENCH_WORK  this script's scratch directory (default bench/work/backport)
#   BACKPORT_BIN  the git-backport to measure (default build/bin/git-backport)
#   SKIP_PER_RULE=1  skip the per-rule correctness pass (the slowest part)
#   SKIP_VERSIONS=1  skip v6.12 after v6.1
#   SKIP_SPEED=1     skip the cold, warm and plain runs and the whole-set check
#                    (with SKIP_PER_RULE=1: only v6.12 after v6.1, e.g. on a
#                    BENCH_RULES subset when the whole set takes too long)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
work=${BACKPORT_BENCH_WORK:-$here/work/backport}
bin=${BACKPORT_BIN:-$top/build/bin/git-backport}
jobs=${JOBS:-2}
path=${BENCH_PATH:-drivers/net/wireless/ath}
spatch=$(command -v spatch) || { echo "bench/backport.sh: spatch not found (Debian package coccinelle)" >&2; exit 1; }
test -x "$bin" || { echo "bench/backport.sh: build git-backport first (make)" >&2; exit 1; }

now () { date +%s.%N; }
secs () { echo "$2 - $1" | bc; }
# CPU seconds (user + system) of this shell's finished children so far: on a
# shared machine the wall time says as much about the neighbours as about us.
# (times runs in this shell: in a pipe or $(...) it would count a subshell's.)
cpu () {
	times >"$work/.times"
	awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' \
		"$work/.times" >"$work/.cpu"
}
say () { echo "backport-bench: $*" >&2; }

src=$("$here/linux-repo.sh")
rm -rf "$work"
mkdir -p "$work"
export LC_ALL=C

# A private clone sharing the objects: the cache, notes and output blobs of
# git backport go into it, not into the shared repository.
fresh_repo () {
	rm -rf "$work/$1.git"
	git clone -q --bare --shared "$src" "$work/$1.git"
	echo "$work/$1.git"
}

# What plain spatch is given: the path and include/ (spatch looks there for a
# file's own header when run from the top of a tree).
checkout () {
	rm -rf "$2"
	mkdir -p "$2"
	git --git-dir="$src" archive "$1" "$path" include | tar -x -C "$2"
	# A repository of its own: git apply inside another work tree (this one)
	# would take paths from that top and silently skip them.
	git -C "$2" init -q
}

# The rules, in one directory, and one directory per rule.
mkdir -p "$work/all"
git --git-dir="$src" archive v6.12 scripts/coccinelle | tar -x -C "$work"
if test -n "${BENCH_RULES:-}"; then
	rules=$(for r in $BENCH_RULES; do echo "$r"; done | sort)
else
	rules=$(cd "$work/scripts/coccinelle" && grep -rl "virtual patch" --include='*.cocci' . |
		sed 's|^\./||' | sort)
fi
n=0
for r in $rules; do
	mkdir -p "$work/all/$(dirname "$r")" "$work/one/$n/$(dirname "$r")"
	cp "$work/scripts/coccinelle/$r" "$work/all/$r"
	cp "$work/scripts/coccinelle/$r" "$work/one/$n/$r"
	n=$((n + 1))
done
nfiles=$(git --git-dir="$src" ls-tree -r --name-only v6.12 -- "$path" | grep -c '\.c$')
say "$n rules, $path at v6.12: $nfiles C files, -j $jobs"

# git backport over the C files of the path (plain spatch --dir takes no headers).
backport () {
	local repo=$1 rev=$2 rdir=$3
	shift 3
	GIT_DIR=$repo "$bin" -q --no-notes -j "$jobs" -D patch --rules="$rdir" --at="$rev" "$@" -- "$path/*.c"
}

if test -z "${SKIP_SPEED:-}"; then
# 1. Cold and warm, whole set.
repo=$(fresh_repo cold)
cpu; c0=$(cat "$work/.cpu")
t0=$(now)
backport "$repo" v6.12 "$work/all" --stat >"$work/cold.stat" 2>"$work/cold.err" || true
t1=$(now)
cpu; c1=$(cat "$work/.cpu")
backport "$repo" v6.12 "$work/all" >"$work/cold.diff" 2>/dev/null
cpu; c2=$(cat "$work/.cpu")
t2=$(now)
backport "$repo" v6.12 "$work/all" --stat >"$work/warm.stat" 2>/dev/null
t3=$(now)
cpu; c3=$(cat "$work/.cpu")
cold=$(secs "$t0" "$t1")
warm=$(secs "$t2" "$t3")
cold_cpu=$(secs "$c0" "$c1")
warm_cpu=$(secs "$c2" "$c3")
say "git backport cold: $cold s (cpu $cold_cpu s); warm: $warm s (cpu $warm_cpu s)"
filter=$(tail -n 1 "$work/cold.stat")

# 2. Plain spatch, rule after rule, in place: the reference for the whole set.
checkout v6.12 "$work/plain"
cpu; c0=$(cat "$work/.cpu")
t0=$(now)
for r in $rules; do
	(cd "$work/plain" && "$spatch" -D patch --sp-file "$work/all/$r" --in-place --dir "$path" \
		-j "$jobs" >/dev/null 2>&1) || say "plain spatch failed on $r"
done
t1=$(now)
cpu; c1=$(cat "$work/.cpu")
plain=$(secs "$t0" "$t1")
plain_cpu=$(secs "$c0" "$c1")
say "plain spatch rule after rule: $plain s (cpu $plain_cpu s)"
checkout v6.12 "$work/ours"
(cd "$work/ours" && git apply --allow-empty "$work/cold.diff")
changed=$(grep -c '^diff --git' "$work/cold.diff" || true)
if diff -r "$work/plain/$path" "$work/ours/$path" >"$work/whole.cmp"; then
	whole=identical
else
	whole="DIFFERENT (see $work/whole.cmp)"
fi
say "whole set: $whole"
fi

# 3. Each rule alone, on a pristine checkout.
same=0 differ=""
if test -z "${SKIP_PER_RULE:-}"; then
	test -n "${repo:-}" || repo=$(fresh_repo cold)
	i=0
	for r in $rules; do
		checkout v6.12 "$work/p1"
		(cd "$work/p1" && "$spatch" -D patch --sp-file "$work/all/$r" --in-place --dir "$path" \
			-j "$jobs" >/dev/null 2>&1) || true
		backport "$repo" v6.12 "$work/one/$i" >"$work/one.diff" 2>/dev/null
		checkout v6.12 "$work/p2"
		(cd "$work/p2" && git apply --allow-empty "$work/one.diff")
		if diff -r "$work/p1/$path" "$work/p2/$path" >"$work/one.cmp"; then
			same=$((same + 1))
			say "rule $r: identical ($(grep -c '^diff --git' "$work/one.diff" || true) files changed)"
		else
			differ="$differ $r"
			cp "$work/one.cmp" "$work/one-$i.cmp"
			say "rule $r: DIFFERENT (see $work/one-$i.cmp)"
		fi
		i=$((i + 1))
	done
	say "per rule: $same of $n identical${differ:+; different:$differ}"
fi

# Does the file (at v6.12) include, beside it and through the headers it
# includes there, a header that differs between v6.1 and v6.12?
reads_changed_header () {
	local queue=$1 seen=" " f d h
	while test -n "$queue"; do
		f=${queue%% *}
		queue=${queue#"$f"}
		queue=${queue# }
		d=$(dirname "$f")
		for h in $(git --git-dir="$src" show "v6.12:$f" 2>/dev/null |
			   sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p'); do
			h=$d/$h
			case "$seen" in *" $h "*) continue ;; esac
			seen="$seen$h "
			grep -q -x -F "$h" "$work/differ.list" && return 0
			queue="${queue:+$queue }$h"
		done
	done
	return 1
}

# 4. v6.12 after v6.1: spatch only on the files that differ.
if test -z "${SKIP_VERSIONS:-}"; then
	repo=$(fresh_repo versions)
	t0=$(now)
	backport "$repo" v6.1 "$work/all" --stat >"$work/v61.stat" 2>/dev/null || true
	t1=$(now)
	mkdir -p "$work/wrap"
	# Logs each file spatch is given: named alone, or the C files of its --dir.
	cat >"$work/wrap/spatch" <<-EOF
	#!/bin/sh
	prev=
	for a in "\$@"; do
		if test "\$prev" = --dir; then
			find "\$a" -name '*.c' | sed 's|^\./||' >>"$work/wrap.log"
		fi
		case "\$a" in *.c|*.h) echo "\$a" >>"$work/wrap.log";; esac
		prev=\$a
	done
	exec "$spatch" "\$@"
	EOF
	chmod +x "$work/wrap/spatch"
	rm -f "$work/wrap.log"
	touch "$work/wrap.log"
	t2=$(now)
	PATH=$work/wrap:$PATH backport "$repo" v6.12 "$work/all" --stat >"$work/v612.stat" 2>/dev/null || true
	t3=$(now)
	v61=$(secs "$t0" "$t1")
	v612=$(secs "$t2" "$t3")
	git --git-dir="$src" diff --name-only v6.1 v6.12 -- "$path" >"$work/differ.list"
	ndiffer=$(grep -c '\.c$' "$work/differ.list" || true)
	runs_after=$(sed -n 's/.*spatch ran on \([0-9]*\) files.*/\1/p' "$work/v612.stat")
	runs_cold=$(sed -n 's/.*spatch ran on \([0-9]*\) files.*/\1/p' "$work/cold.stat" 2>/dev/null || true)
	# A file whose own blob is the same may still run when a header it reads
	# (#include "x.h" beside it) changed: spatch's result may differ then.
	sort -u "$work/wrap.log" | grep -v -x -F -f "$work/differ.list" >"$work/outside.list" || true
	outside=$(wc -l <"$work/outside.list")
	by_header=0
	while read -r f; do
		! reads_changed_header "$f" || by_header=$((by_header + 1))
	done <"$work/outside.list"
	runs=$(wc -l <"$work/wrap.log")
	say "v6.1 cold: $v61 s; v6.12 after v6.1: $v612 s, $runs_after spatch runs (cold: $runs_cold)"

fi

echo "git backport bench: $n rules of scripts/coccinelle (-D patch), $path at v6.12 ($nfiles C files), -j $jobs"
test -n "${SKIP_SPEED:-}" || cat <<EOF
correctness, whole set in order: $whole ($changed files changed)
correctness, each rule alone: ${SKIP_PER_RULE:+skipped}${SKIP_PER_RULE:-$same of $n identical${differ:+ (different:$differ)}}
plain spatch rule after rule: $plain s
plain spatch CPU (user+sys): $plain_cpu s
git backport cold: $cold s ($(echo "scale=2; $cold / $plain" | bc)x plain spatch), CPU $cold_cpu s ($(echo "scale=2; $cold_cpu / $plain_cpu" | bc)x)
git backport warm: $warm s ($(echo "scale=1; 100 * $warm / $cold" | bc)% of cold), CPU $warm_cpu s
token filter (cold): ${filter#*; }
EOF
test -n "${SKIP_VERSIONS:-}" || cat <<EOF
v6.1 cold: $v61 s; v6.12 after v6.1: $v612 s ($(echo "scale=1; 100 * $v612 / $v61" | bc)% of v6.1 cold)${cold:+ ($(echo "scale=1; 100 * $v612 / $cold" | bc)% of v6.12 cold)}, spatch on $runs_after files${runs_cold:+ vs $runs_cold cold}
  C files differing v6.1..v6.12 in $path: $ndiffer of $nfiles; (rule, file) runs of spatch: $runs
  files spatch ran on whose blob did not change: $outside, of which $by_header read a header that changed (beside them, directly or through another)
EOF
