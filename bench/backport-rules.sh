#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git backport cold beside plain spatch, rule by rule, as a user compares them:
# the kernel's own scripts/coccinelle rules (patch mode) over a real driver
# directory of Linux 6.12, headers included on both sides.
#
#   plain   spatch -D patch --sp-file R --include-headers --in-place --dir PATH -j J
#           in a fresh checkout of PATH and include/
#   cold    git backport -D patch -j J --at=v6.12 -- PATH, R alone, empty cache
#   again   the same command once more (the answers come from the cache)
#
# For each rule: the seconds (wall and CPU) of each side, the ratio cold/plain,
# and whether our preview applied to a checkout equals what plain spatch left,
# byte for byte. Then the totals. Sides alternate rule by rule, so that both
# see the same load on a shared machine.
#
#   bench/backport-rules.sh [<rule under scripts/coccinelle>...]
#
# Environment: BENCH_WORK (bench/linux-repo.sh's cache), BENCH_PATH (default
# drivers/net/wireless/ath), JOBS (default 2), BACKPORT_BIN (default
# build/bin/git-backport), BACKPORT_RULES_WORK (scratch, default
# bench/work/backport-rules).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
src=$("$here/linux-repo.sh")
work=${BACKPORT_RULES_WORK:-$here/work/backport-rules}
bin=${BACKPORT_BIN:-$top/build/bin/git-backport}
path=${BENCH_PATH:-drivers/net/wireless/ath}
jobs=${JOBS:-2}
command -v spatch >/dev/null || { echo "backport-rules: spatch not found (Debian package coccinelle)" >&2; exit 1; }
test -x "$bin" || { echo "backport-rules: build git-backport first (make)" >&2; exit 1; }
export LC_ALL=C

if test $# -gt 0; then
	rules="$*"
else
	# Three that change files of ath, nine that change none.
	rules="api/string_choices.cocci misc/minmax.cocci misc/returnvar.cocci
	       api/d_find_alias.cocci api/device_attr_show.cocci api/kfree_sensitive.cocci
	       api/err_cast.cocci api/kstrdup.cocci api/memdup.cocci
	       api/resource_size.cocci api/simple_open.cocci api/vma_pages.cocci"
fi

rm -rf "$work"
mkdir -p "$work"
git --git-dir="$src" archive v6.12 scripts/coccinelle | tar -x -C "$work"
mkdir -p "$work/pristine"
git --git-dir="$src" archive v6.12 "$path" include | tar -x -C "$work/pristine"
git clone -q --bare --shared "$src" "$work/repo.git"
nc=$(find "$work/pristine/$path" -name '*.c' | wc -l)
nh=$(find "$work/pristine/$path" -name '*.h' | wc -l)
echo "backport-rules: $path at v6.12 ($nc .c, $nh .h), -j $jobs, spatch $(spatch --version | head -n 1 | awk '{print $3}')" >&2

# timed <out-prefix> <command...>: wall and CPU seconds into <prefix>.time
timed () {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$out.time" "$@"
}
wall () { awk '{print $1}' "$1.time"; }
cpu () { awk '{printf "%.2f", $2 + $3}' "$1.time"; }

printf '%-28s %9s %9s %6s %9s %9s %7s %s\n' rule plain_s cold_s ratio plain_cpu cold_cpu again_s same
tp=0 tc=0 ta=0 tpc=0 tcc=0 worst=0 worst_rule= alldiff=0
for r in $rules; do
	name=$(echo "$r" | tr / _)
	d=$work/$name
	mkdir -p "$d/rules/$(dirname "$r")"
	cp "$work/scripts/coccinelle/$r" "$d/rules/$r"
	# plain spatch, in place on a fresh checkout
	cp -a "$work/pristine" "$d/plain"
	(cd "$d/plain" && timed "$d/plain" spatch -D patch --sp-file "$d/rules/$r" --include-headers \
		--in-place --dir "$path" -j "$jobs" >/dev/null 2>&1) || echo "backport-rules: plain spatch failed on $r" >&2
	# git backport cold, then again
	GIT_DIR=$work/repo.git timed "$d/cold" "$bin" -q --no-notes -j "$jobs" -D patch \
		--rules="$d/rules" --at=v6.12 --format=json -- "$path" >"$d/cold.json" 2>"$d/cold.err" || true
	GIT_DIR=$work/repo.git timed "$d/again" "$bin" -q --no-notes -j "$jobs" -D patch \
		--rules="$d/rules" --at=v6.12 -- "$path" >"$d/again.diff" 2>/dev/null || true
	# our preview applied to a checkout must be what plain spatch left
	cp -a "$work/pristine" "$d/ours"
	git -C "$d/ours" init -q
	(cd "$d/ours" && git apply --allow-empty "$d/again.diff") || echo "backport-rules: our diff does not apply ($r)" >&2
	rm -rf "$d/ours/.git"
	if diff -r "$d/plain" "$d/ours" >"$d/cmp"; then
		same=yes
	else
		same=NO
		alldiff=1
	fi
	p=$(wall "$d/plain") c=$(wall "$d/cold") a=$(wall "$d/again")
	pc=$(cpu "$d/plain") cc=$(cpu "$d/cold")
	ratio=$(echo "scale=2; $c / ($p + 0.001)" | bc)
	printf '%-28s %9s %9s %6s %9s %9s %7s %s\n' "$r" "$p" "$c" "$ratio" "$pc" "$cc" "$a" "$same"
	tp=$(echo "$tp + $p" | bc) tc=$(echo "$tc + $c" | bc) ta=$(echo "$ta + $a" | bc)
	tpc=$(echo "$tpc + $pc" | bc) tcc=$(echo "$tcc + $cc" | bc)
	if test "$(echo "$ratio > $worst" | bc)" = 1; then
		worst=$ratio worst_rule=$r
	fi
	rm -rf "$d/plain" "$d/ours"
done
printf '%-28s %9s %9s %6s %9s %9s %7s %s\n' total "$tp" "$tc" "$(echo "scale=2; $tc / $tp" | bc)" \
	"$tpc" "$tcc" "$ta" "$(test $alldiff = 0 && echo yes || echo NO)"
echo "slowest rule against plain: $worst_rule ($worst x); again: $(echo "scale=1; 100 * $ta / $tc" | bc)% of cold; load $(cut -d' ' -f1 /proc/loadavg)"
test $alldiff = 0
