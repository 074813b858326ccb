#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git backport cold beside plain spatch, as a user compares them: the kernel's
# own scripts/coccinelle rules (patch mode) over a real driver directory of
# Linux 6.12, headers included on both sides, -j J on both sides.
#
#   plain   spatch -D patch --sp-file R --include-headers --in-place --dir PATH -j J,
#           rule after rule, in a fresh checkout of PATH and include/
#   cold    git backport -D patch -j J --at=v6.12 --format=json -- PATH, all the
#           rules in one run (in the same order), empty cache
#   again   the same command once more (the answers come from the cache)
#
# The per-rule table puts each rule's plain run beside its step in our run
# (the "seconds" of --format=json: planning, writing its files, spatch,
# reading the results; rules run one after the other). What our run spends
# outside the rules' steps (reading the files from the object store, asking
# spatch for each rule's tokens, the output) is the "setup" row, so that the
# rows add up to the total. Our preview applied to a pristine checkout must be
# byte for byte what plain spatch left in place.
#
# With ROUNDS=N, the sides alternate round after round (plain first in odd
# rounds, ours first in even ones) so that both see the same load on a shared
# machine, and each figure is the smallest of its N runs.
#
# With ALONE=1 instead, each rule runs alone on both sides, alternating rule
# by rule: its own cold and again, its own diff checked (every fixed cost
# counted once per rule).
#
#   bench/backport-rules.sh [<rule under scripts/coccinelle>...]
#
# Environment: BENCH_WORK (bench/linux-repo.sh's cache), BENCH_PATH (default
# drivers/net/wireless/ath), JOBS (default 2), ROUNDS (default 1), ALONE, PLAIN_GC,
# BACKPORT_BIN (default build/bin/git-backport), BACKPORT_RULES_WORK
# (scratch, default bench/work/backport-rules).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
src=$("$here/linux-repo.sh")
work=${BACKPORT_RULES_WORK:-$here/work/backport-rules}
bin=${BACKPORT_BIN:-$top/build/bin/git-backport}
path=${BENCH_PATH:-drivers/net/wireless/ath}
jobs=${JOBS:-2}
rounds=${ROUNDS:-1}
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
nr=$(echo $rules | wc -w)
echo "backport-rules: $nr rules, $path at v6.12 ($nc .c, $nh .h), -j $jobs, spatch $(spatch --version | head -n 1 | awk '{print $3}'), ${ALONE:+each rule alone, }$rounds round(s)" >&2

# timed <out-prefix> <command...>: wall and CPU seconds (with the children's) into <prefix>.time
timed () {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$out.time" "$@"
}
wall () { tail -n 1 "$1.time" | awk '{print $1}'; }
cpu () { tail -n 1 "$1.time" | awk '{printf "%.2f", $2 + $3}'; }
# min <a> <b>: the smaller, "" counting as none
min () { if test -z "$1" || test "$(echo "$2 < $1" | bc)" = 1; then echo "$2"; else echo "$1"; fi; }
ratio () { echo "scale=2; $1 / ($2 + 0.001)" | bc | sed 's/^\./0./'; }

# our preview ($1) applied to a pristine checkout must be what plain spatch left ($2)
same_as_plain () {
	local ours=$work/ours
	rm -rf "$ours"
	cp -a "$work/pristine" "$ours"
	git -C "$ours" init -q
	(cd "$ours" && git apply --allow-empty "$1") || echo "backport-rules: our diff does not apply ($1)" >&2
	rm -rf "$ours/.git"
	if diff -r "$2" "$ours" >"$1.cmp"; then echo yes; else echo NO; fi
	rm -rf "$ours"
}

# preview <json>: the preview object of git backport --format=json (JSON Lines:
# the last object's "preview"; a single object in older versions)
preview_py='
import json, sys
def preview(path):
    text = open(path).read()
    try:
        objs = [json.loads(text)]
    except ValueError:
        objs = [json.loads(l) for l in text.splitlines() if l.strip()]
    for o in reversed(objs):
        if "preview" in o:
            return o["preview"]
    return objs[-1]
'

# git backport cold or again (a command /usr/bin/time can run, not a function)
backport=(env GIT_DIR="$work/repo.git" "$bin" -q --no-notes -j "$jobs" -D patch --at=v6.12)

if test -n "${ALONE:-}"; then
	printf '%-28s %9s %9s %6s %9s %9s %7s %s\n' rule plain_s cold_s ratio plain_cpu cold_cpu again_s same
	tp=0 tc=0 ta=0 tpc=0 tcc=0 worst=0 worst_rule= alldiff=0
	for r in $rules; do
		d=$work/$(echo "$r" | tr / _)
		mkdir -p "$d/rules/$(dirname "$r")"
		cp "$work/scripts/coccinelle/$r" "$d/rules/$r"
		cp -a "$work/pristine" "$d/plain"
		(cd "$d/plain" && timed "$d/plain" spatch -D patch --sp-file "$d/rules/$r" --include-headers \
			--in-place --dir "$path" -j "$jobs" >/dev/null 2>&1) || echo "backport-rules: plain spatch failed on $r" >&2
		rm -rf "$work/repo.git/backport"
		timed "$d/cold" "${backport[@]}" --rules="$d/rules" --format=json -- "$path" >"$d/cold.json" 2>"$d/cold.err" || true
		timed "$d/again" "${backport[@]}" --rules="$d/rules" -- "$path" >"$d/again.diff" 2>/dev/null || true
		same=$(same_as_plain "$d/again.diff" "$d/plain")
		test "$same" = yes || alldiff=1
		p=$(wall "$d/plain") c=$(wall "$d/cold") a=$(wall "$d/again")
		pc=$(cpu "$d/plain") cc=$(cpu "$d/cold")
		rt=$(ratio "$c" "$p")
		printf '%-28s %9s %9s %6s %9s %9s %7s %s\n' "$r" "$p" "$c" "$rt" "$pc" "$cc" "$a" "$same"
		tp=$(echo "$tp + $p" | bc) tc=$(echo "$tc + $c" | bc) ta=$(echo "$ta + $a" | bc)
		tpc=$(echo "$tpc + $pc" | bc) tcc=$(echo "$tcc + $cc" | bc)
		if test "$(echo "$rt > $worst" | bc)" = 1; then
			worst=$rt worst_rule=$r
		fi
		rm -rf "$d/plain"
	done
	printf '%-28s %9s %9s %6s %9s %9s %7s %s\n' total "$tp" "$tc" "$(ratio "$tc" "$tp")" \
		"$tpc" "$tcc" "$ta" "$(test $alldiff = 0 && echo yes || echo NO)"
	echo "slowest rule against plain: $worst_rule (${worst}x); again: $(echo "scale=1; 100 * $ta / $tc" | bc)% of cold; load $(cut -d' ' -f1 /proc/loadavg)"
	test $alldiff = 0
	exit
fi

# The rules in one directory, numbered so that ours run in the order given,
# as plain spatch does rule after rule.
mkdir -p "$work/rules"
i=0
for r in $rules; do
	i=$((i + 1))
	cp "$work/scripts/coccinelle/$r" "$work/rules/$(printf %02d "$i")-$(echo "$r" | tr / _)"
done

# PLAIN_GC=1: plain spatch gets the OCaml collector settings that git backport
# gives it (run.c's SPATCH_GC), to tell that gain from the rest.
plain_env=(env)
test -z "${PLAIN_GC:-}" || plain_env=(env OCAMLRUNPARAM=s=512k,o=300)

plain_side () {
	local d=$work/round$1/plain i=0
	mkdir -p "$d"
	cp -a "$work/pristine" "$d/tree"
	for r in $rules; do
		i=$((i + 1))
		(cd "$d/tree" && timed "$d/$i" "${plain_env[@]}" spatch -D patch --sp-file "$work/scripts/coccinelle/$r" \
			--include-headers --in-place --dir "$path" -j "$jobs" >/dev/null 2>&1) ||
			echo "backport-rules: plain spatch failed on $r" >&2
	done
	awk '{ w += $1; c += $2 + $3 } END { printf "%.2f %.2f\n", w, c }' "$d"/*.time >"$d/total"
}

our_side () {
	local d=$work/round$1/ours
	mkdir -p "$d"
	rm -rf "$work/repo.git/backport"
	timed "$d/cold" "${backport[@]}" --rules="$work/rules" --format=json -- "$path" >"$d/cold.json" 2>"$d/cold.err" || true
	timed "$d/again" "${backport[@]}" --rules="$work/rules" -- "$path" >"$d/again.diff" 2>/dev/null || true
	# per rule: its step's seconds, in the order of the rules
	python3 -c "$preview_py"'
for r in preview(sys.argv[1])["rules"]:
    print("%.2f %d" % (r["seconds"], r["processes"]))
' "$d/cold.json" >"$d/steps"
	python3 -c "$preview_py"'
print(preview(sys.argv[1])["diff"], end="")
' "$d/cold.json" >"$d/cold.diff"
}

alldiff=0
for n in $(seq "$rounds"); do
	if test $((n % 2)) = 1; then
		plain_side "$n"
		our_side "$n"
	else
		our_side "$n"
		plain_side "$n"
	fi
	d=$work/round$n
	same=$(same_as_plain "$d/ours/cold.diff" "$d/plain/tree")
	cmp -s "$d/ours/cold.diff" "$d/ours/again.diff" || same="$same (again: DIFFERENT)"
	test "$same" = yes || alldiff=1
	read -r pw pc <"$d/plain/total"
	echo "round $n: plain $pw s (CPU $pc s), git backport cold $(wall "$d/ours/cold") s" \
		"(CPU $(cpu "$d/ours/cold") s), again $(wall "$d/ours/again") s; same diff: $same;" \
		"load $(cut -d' ' -f1 /proc/loadavg)" >&2
	rm -rf "$d/plain/tree"
done

# The smallest of the rounds, figure by figure.
printf '%-32s %9s %9s %6s %10s\n' rule plain_s cold_s ratio processes
tp= tc= tpc= tcc= ta= worst=0 worst_rule= setup=
i=0
for r in $rules; do
	i=$((i + 1))
	p= c= np=
	for n in $(seq "$rounds"); do
		p=$(min "$p" "$(wall "$work/round$n/plain/$i")")
		c=$(min "$c" "$(sed -n "${i}p" "$work/round$n/ours/steps" | cut -d' ' -f1)")
		np=$(sed -n "${i}p" "$work/round$n/ours/steps" | cut -d' ' -f2)
	done
	rt=$(ratio "$c" "$p")
	printf '%-32s %9s %9s %6s %10s\n' "$r" "$p" "$c" "$rt" "$np"
	if test "$(echo "$rt > $worst" | bc)" = 1; then
		worst=$rt worst_rule=$r
	fi
done
for n in $(seq "$rounds"); do
	read -r pw pc <"$work/round$n/plain/total"
	tp=$(min "$tp" "$pw") tpc=$(min "$tpc" "$pc")
	tc=$(min "$tc" "$(wall "$work/round$n/ours/cold")")
	tcc=$(min "$tcc" "$(cpu "$work/round$n/ours/cold")")
	ta=$(min "$ta" "$(wall "$work/round$n/ours/again")")
	s=$(awk '{ s += $1 } END { printf "%.2f", s }' "$work/round$n/ours/steps")
	setup=$(min "$setup" "$(echo "$(wall "$work/round$n/ours/cold") - $s" | bc | sed 's/^\./0./')")
done
nproc=$(python3 -c "$preview_py"'
print(sum(r["processes"] for r in preview(sys.argv[1])["rules"]))' "$work/round1/ours/cold.json")
printf '%-32s %9s %9s %6s %10s\n' "setup (ours: read, tokens, out)" - "$setup" - -
printf '%-32s %9s %9s %6s %10s\n' total "$tp" "$tc" "$(ratio "$tc" "$tp")" "$nproc"
printf '%-32s %9s %9s %6s\n' "CPU (user+sys)" "$tpc" "$tcc" "$(ratio "$tcc" "$tpc")"
echo "slowest rule against plain: $worst_rule (${worst}x); again: $ta s, $(echo "scale=1; 100 * $ta / $tc" | bc)% of cold;" \
	"same diff as plain spatch: $(test $alldiff = 0 && echo yes || echo NO)"
test $alldiff = 0
