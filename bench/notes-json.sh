#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git undertaker from its notes: --format=json against text, on real U-Boot history.
#   1. the newest 100 commits (no merges) of a pinned U-Boot commit, checked cold
#      (text), which writes their notes;
#   2. the same range again from the notes: text, then --format=json, each the
#      best of three runs;
#   3. --show=all: once to write notes that keep the unchanged defects (a plain
#      note lacks them, so --show=all checks those commits again), then from
#      those notes as text and JSON, each the best of three;
#   4. with --verify: --format=json --force --no-notes (analysed again), compared
#      with the JSON printed from the notes, and the same for --show=all, text
#      and JSON.
#
#   bench/notes-json.sh [--verify] [--commits=N]
#
# The U-Boot repository is the fetched mirror (UBOOT_GIT, default
# /work/.mirror/u-boot+u-boot/repo), borrowed through objects/info/alternates by
# a bare repository under $BENCH_WORK/notes-json, so that no note is written
# into the mirror. Results are appended to $BENCH_WORK/notes-json/results.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

verify= n=100
while test $# -gt 0; do
	case "$1" in
	--verify) verify=1 ;;
	--commits=*) n=${1#--commits=} ;;
	*) echo "usage: bench/notes-json.sh [--verify] [--commits=N]" >&2; exit 129 ;;
	esac
	shift
done

nwork=$work/notes-json
repo=$nwork/u-boot.git
mkdir -p "$nwork"
bench_log=$nwork/results.txt
uboot_repo "$repo" bench/notes-json.sh
tip=$uboot_tip
export GIT_DIR=$repo
range=(-n "$n" --no-merges master)
ref=refs/notes/bench-$$
say "== bench/notes-json.sh $(date -u '+%F %T') UTC on $(nproc) cores, $(git undertaker --version): U-Boot ${tip:0:12}, ${range[*]}"

rc=0
timed "cold, text, writing notes" git undertaker --notes-ref=$ref "${range[@]}" >"$nwork/cold.txt" 2>"$nwork/cold.err" || rc=$?
test $rc -le 1 || { tail -n 3 "$nwork/cold.err" >&2; exit 1; }
say "  $(git notes --ref=$ref list | wc -l) notes, $(grep -c '^[^ ].*:[0-9]*: ' "$nwork/cold.txt" || true) defect lines"

# best <label> <output> <args...>: the fastest of three runs from the notes.
best () {
	local label=$1 out=$2 w u s c bw= bu bs bc
	shift 2
	for _ in 1 2 3; do
		timed "  $label" git undertaker --notes-ref=$ref "$@" "${range[@]}" >"$out" 2>/dev/null || true
		if test -z "$bw" || test "$(echo "$timed_cpu < $bc" | bc)" = 1; then
			bw=$timed_wall bu=$timed_user bs=$timed_sys bc=$timed_cpu
		fi
	done
	best_cpu=$bc
	say "$label, best of 3: ${bw} s wall (${bu} s user, ${bs} s sys)"
}
best "text from notes" "$nwork/notes.txt"
text_cpu=$best_cpu
cmp -s "$nwork/cold.txt" "$nwork/notes.txt" && say "  the same text as the cold run" ||
	say "  TEXT DIFFERS from the cold run"
best "json from notes" "$nwork/notes.json" --format=json
json_cpu=$best_cpu
say "  json/text CPU time: $(echo "scale=2; $json_cpu / $text_cpu" | bc)"
say "  $(wc -l <"$nwork/notes.json") JSON lines, $(grep -o '"status":"new"' "$nwork/notes.json" | wc -l) new defects"
rc=0
timed "--show=all, writing notes that keep the unchanged defects" \
	git undertaker --notes-ref=$ref --show=all "${range[@]}" >"$nwork/all-first.txt" 2>/dev/null || rc=$?
best "text --show=all from notes" "$nwork/notes-all.txt" --show=all
all_text_cpu=$best_cpu
cmp -s "$nwork/all-first.txt" "$nwork/notes-all.txt" && say "  the same text as the run that wrote them" ||
	say "  --show=all TEXT DIFFERS from the run that wrote the notes"
best "json --show=all from notes" "$nwork/notes-all.json" --format=json --show=all
say "  json/text CPU time (--show=all): $(echo "scale=2; $best_cpu / $all_text_cpu" | bc)"
say "  $(grep -o '"status":"[a-z]*"' "$nwork/notes-all.json" | sort | uniq -c | tr -s ' \n' ' ')"

if test -n "$verify"; then
	rc=0
	timed "json analysed again (--force --no-notes)" git undertaker --no-notes --force --format=json "${range[@]}" >"$nwork/fresh.json" 2>/dev/null || rc=$?
	cmp -s "$nwork/fresh.json" "$nwork/notes.json" && say "  the same JSON as from the notes" ||
		say "  JSON DIFFERS from the one printed from the notes"
	rc=0
	timed "--show=all analysed again (--no-notes), text" git undertaker --no-notes --show=all "${range[@]}" >"$nwork/fresh-all.txt" 2>/dev/null || rc=$?
	cmp -s "$nwork/fresh-all.txt" "$nwork/notes-all.txt" && say "  the same --show=all text as from the notes" ||
		say "  --show=all TEXT DIFFERS from the one printed from the notes"
	rc=0
	timed "--show=all analysed again (--no-notes), json" git undertaker --no-notes --show=all --format=json "${range[@]}" >"$nwork/fresh-all.json" 2>/dev/null || rc=$?
	cmp -s "$nwork/fresh-all.json" "$nwork/notes-all.json" && say "  the same --show=all JSON as from the notes" ||
		say "  --show=all JSON DIFFERS from the one printed from the notes"
fi
git update-ref -d $ref
