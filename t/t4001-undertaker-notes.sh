#!/bin/sh
test_description='git undertaker: notes, re-runs, bare repositories and rebase --exec'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup' '
	setup_foo_bar_commits &&
	write_file c.c <<-\EOF &&
	int c;
	EOF
	git add . && test_tick && git commit -q -m "add c" && git tag good
'

test_expect_success 'a run writes one note per commit, in one notes commit' '
	test_expect_code 1 git undertaker base..good >out &&
	grep "^b.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_FOO$" out &&
	test $(git rev-list refs/notes/undertaker | wc -l) = 1 &&
	git notes --ref=undertaker list >notes &&
	test_line_count = 2 notes
'

test_expect_success 'git notes and git log read the notes back' '
	git notes --ref=undertaker show bad >note &&
	grep "^b.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_FOO$" note &&
	tail -n 1 note >last &&
	echo "Undertaker: 1 new, 0 fixed" >expect &&
	test_cmp expect last &&
	git notes --ref=undertaker show good >note &&
	tail -n 1 note >last &&
	echo "Undertaker: 0 new, 0 fixed" >expect &&
	test_cmp expect last &&
	git log --notes=undertaker -1 bad >log &&
	grep "Undertaker: 1 new, 0 fixed" log
'

test_expect_success 'a second run reuses current notes: same output, no new notes commit' '
	test_expect_code 1 git undertaker base..good >out2 &&
	test_cmp out out2 &&
	test $(git rev-list refs/notes/undertaker | wc -l) = 1
'

test_expect_success '--format=json prints from a current note, as checking again would' '
	test_expect_code 1 git undertaker --format=json base..good >json &&
	test_expect_code 1 git undertaker --no-notes --format=json base..good >fresh &&
	test_cmp fresh json &&
	test_line_count = 2 json &&
	git notes --ref=undertaker-data show bad >data &&
	grep "^{\"path\":\"b.c\",\"line\":2,.*\"status\":\"new\"}$" data &&
	# The data note names the blob of the readable note it goes with.
	echo "Undertaker-Note: $(git notes --ref=undertaker list bad)" >expect &&
	head -n 1 data >actual &&
	test_cmp expect actual &&
	# A marked note: what is printed comes from the note, not from a new check.
	sed "s/\"directive\":\"#ifndef CONFIG_FOO\"/\"directive\":\"from the note\"/" data >marked &&
	git notes --ref=undertaker-data add -f -F marked bad &&
	test_expect_code 1 git undertaker --format=json bad >json &&
	grep "\"directive\":\"from the note\"" json &&
	git notes --ref=undertaker-data add -f -F data bad
'

test_expect_success 'git log --notes=undertaker shows each defect once, and no JSON' '
	git log --notes=undertaker -1 bad >log &&
	test $(grep -c "b.c:2: dead block B1" log) = 1 &&
	! grep "Undertaker-Defect\|{\"path\"" log
'

test_expect_success 'both refs are written in one run, each in one notes commit' '
	test_expect_code 1 git undertaker --notes-ref=pair base..good >/dev/null &&
	git notes --ref=pair list | cut -d" " -f2 | sort >readable &&
	git notes --ref=pair-data list | cut -d" " -f2 | sort >datas &&
	test_line_count = 2 readable &&
	test_cmp readable datas &&
	test $(git rev-list refs/notes/pair | wc -l) = 1 &&
	test $(git rev-list refs/notes/pair-data | wc -l) = 1
'

test_expect_success 'a data note of another readable note is no note: JSON checks again' '
	git notes --ref=undertaker show bad >note &&
	git notes --ref=undertaker-data show bad >data &&
	# The readable note replaced alone, as by a run that died between the refs.
	sed "s/^Undertaker: 1 new, 0 fixed$/Undertaker: 1 new, 0 fixed, 0 accepted/" note >other &&
	git notes --ref=undertaker add -f -F other bad &&
	sed "s/\"directive\":\"#ifndef CONFIG_FOO\"/\"directive\":\"from the note\"/" data >marked &&
	git notes --ref=undertaker-data add -f -F marked bad &&
	test_expect_code 1 git undertaker --format=json bad >json &&
	! grep "from the note" json &&
	grep "\"directive\":\"#ifndef CONFIG_FOO\"" json &&
	# ...and the check wrote the pair again.
	git notes --ref=undertaker show bad >again &&
	test_cmp note again &&
	git notes --ref=undertaker-data show bad >again &&
	test_cmp data again &&
	# A readable note with no data note at all: the same.
	git notes --ref=undertaker-data remove bad 2>/dev/null &&
	test_expect_code 1 git undertaker --format=json bad >json2 &&
	test_cmp json json2 &&
	git notes --ref=undertaker-data show bad >again &&
	test_cmp data again
'

test_expect_success 'a data note of two runs merged (two ids, cat_sort_uniq) is no note either' '
	git notes --ref=undertaker-data show bad >data &&
	{ echo "Undertaker-Note: 0123456789012345678901234567890123456789" && cat data; } |
		sed "s/\"directive\":\"#ifndef CONFIG_FOO\"/\"directive\":\"from the note\"/" |
		sort -u >merged &&
	git notes --ref=undertaker-data add -f -F merged bad &&
	test_expect_code 1 git undertaker --format=json bad >json &&
	! grep "from the note" json &&
	git notes --ref=undertaker-data show bad >again &&
	test_cmp data again
'

test_expect_success 'a note of the first form (Undertaker-Defect: trailers) is still read' '
	git notes --ref=undertaker show bad >note &&
	git notes --ref=undertaker-data show bad >data &&
	test_expect_code 1 git undertaker --no-notes --format=json base..good >fresh &&
	# The old form: the JSON as trailers before the model key, no data note.
	sed -n "/^Undertaker-Model:/q;p" note >old &&
	sed "1d;s/\"directive\":\"#ifndef CONFIG_FOO\"/\"directive\":\"from the old note\"/;s/^/Undertaker-Defect: /" data >>old &&
	sed -n "/^Undertaker-Model:/,\$p" note >>old &&
	grep "^Undertaker-Defect: {" old &&
	git notes --ref=undertaker add -f -F old bad &&
	git notes --ref=undertaker-data remove bad &&
	test_expect_code 1 git undertaker --format=json base..good >json &&
	grep "from the old note" json &&
	sed "s/from the old note/#ifndef CONFIG_FOO/" json >unmarked &&
	test_cmp fresh unmarked &&
	test_expect_code 1 git undertaker base..good >text &&
	test_cmp out text &&
	# Read, not rewritten.
	git notes --ref=undertaker show bad >again &&
	test_cmp old again &&
	test_must_fail git notes --ref=undertaker-data show bad 2>/dev/null &&
	git notes --ref=undertaker add -f -F note bad &&
	git notes --ref=undertaker-data add -f -F data bad
'

test_expect_success '--data-notes-ref names the second ref; refs outside refs/notes/ are refused' '
	test_expect_code 1 git undertaker --notes-ref=mine --data-notes-ref=mine-json base..good >/dev/null &&
	git notes --ref=mine-json list bad >/dev/null &&
	test_expect_code 1 git undertaker --notes-ref=other2 base..good >/dev/null &&
	git notes --ref=other2-data list bad >/dev/null &&
	test_expect_code 129 git undertaker --data-notes-ref=refs/heads/x base..good 2>err &&
	grep "outside of refs/notes/" err &&
	test_expect_code 129 git undertaker --data-notes-ref=undertaker base..good 2>err &&
	grep "must differ" err
'

test_expect_success '--force checks again' '
	test_expect_code 1 git undertaker --force base..good >out3 &&
	test_cmp out out3
'

test_expect_success '--explain explains a commit that has a current note' '
	git notes --ref=undertaker show bad >note &&
	test_expect_code 1 git undertaker --explain bad >out &&
	grep "^b.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_FOO$" out &&
	grep "^    CONFIG_BAR (Kconfig:[0-9]*) depends on FOO$" out
'

test_expect_success '--no-notes writes nothing; --notes-ref writes elsewhere' '
	test_expect_code 1 git undertaker --no-notes --notes-ref=other bad &&
	test_must_fail git rev-parse --verify -q refs/notes/other &&
	test_expect_code 1 git undertaker --notes-ref=other bad >/dev/null &&
	git notes --ref=other show bad >note &&
	grep "Undertaker: 1 new" note
'

test_expect_success 'commit limiting options of git rev-list: -n, --skip, --grep' '
	test_expect_code 0 git undertaker --notes-ref=refs/notes/limits -n 1 >out &&
	git notes --ref=limits list >notes &&
	test_line_count = 1 notes &&
	git notes --ref=limits list good &&
	test_expect_code 1 git undertaker --notes-ref=refs/notes/limits2 --skip=1 --max-count=1 >out &&
	git notes --ref=limits2 list bad &&
	test_expect_code 1 git undertaker --no-notes --grep="add b" --no-merges base.. >out &&
	grep "^b.c:2: dead block B1" out &&
	test_expect_code 129 git undertaker --all -n 2 2>err &&
	grep "limiting" err
'

test_expect_success 'a note git wrote is replaced, not appended to' '
	git notes --ref=third add -m "old text" good &&
	git undertaker --notes-ref=third good &&
	git notes --ref=third show good >note &&
	! grep "old text" note &&
	grep "Undertaker: 0 new, 0 fixed" note
'

test_expect_success 'a bare repository works the same' '
	git clone -q --bare . bare.git &&
	test_expect_code 1 git -C bare.git undertaker base..good >bare-out &&
	test_cmp out bare-out &&
	git -C bare.git notes --ref=undertaker show bad >note &&
	grep "Undertaker: 1 new" note
'

test_expect_success 'git rebase -i --exec stops at the commit that adds a defect' '
	git checkout -q -b topic good &&
	test_must_fail env GIT_SEQUENCE_EDITOR=: git rebase -q -i --force-rebase \
		--exec "git undertaker --no-notes HEAD^!" base >rebase-out 2>&1 &&
	test "$(git log -1 --format=%s HEAD)" = "add b" &&
	git rebase --abort &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse good)"
'

test_expect_success '--show=all prints the same from a note as from a new check' '
	git checkout -q -b touch bad &&
	echo "int touched;" >>b.c &&
	git commit -q -a -m "touch b" &&
	test_expect_code 1 git undertaker --no-notes --show=all base..touch >fresh &&
	grep "^b.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_FOO \[unchanged\]$" fresh &&
	test_expect_code 1 git undertaker --notes-ref=refs/notes/all --show=all base..touch >first &&
	test_cmp fresh first &&
	git notes --ref=all show touch >note &&
	grep "^b.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_FOO \[unchanged\]$" note &&
	grep "^Undertaker-Show: all$" note &&
	! grep "^Undertaker-Defect:" note &&
	git notes --ref=all-data show touch >data &&
	grep "^{\"path\":\"b.c\",.*\"status\":\"unchanged\"}$" data &&
	test_expect_code 1 git undertaker --notes-ref=refs/notes/all --show=all base..touch >again &&
	test_cmp fresh again &&
	test $(git rev-list refs/notes/all | wc -l) = 1 &&
	test_expect_code 1 git undertaker --no-notes --show=all --format=json base..touch >fresh.json &&
	grep "\"status\":\"unchanged\"" fresh.json &&
	test_expect_code 1 git undertaker --notes-ref=refs/notes/all --show=all --format=json base..touch >again.json &&
	test_cmp fresh.json again.json &&
	# Without --show=all, the same note prints the new defects only.
	test_expect_code 1 git undertaker --no-notes base..touch >fresh-new &&
	test_expect_code 1 git undertaker --notes-ref=refs/notes/all base..touch >again-new &&
	test_cmp fresh-new again-new &&
	! grep unchanged again-new &&
	# A marked note: the unchanged line printed comes from the note.
	sed "s/#ifndef CONFIG_FOO \[unchanged\]$/from the note [unchanged]/" note >marked &&
	git notes --ref=all add -f -F marked touch &&
	test_expect_code 1 git undertaker --notes-ref=refs/notes/all --show=all base..touch >marked-out &&
	grep "^b.c:2: dead block B1 (kconfig, global): from the note \[unchanged\]$" marked-out
'

test_expect_success '--show=all checks again a commit whose note lacks the unchanged defects' '
	test_expect_code 1 git undertaker --notes-ref=refs/notes/plain base..touch >plain &&
	git notes --ref=plain show touch >note &&
	! grep "unchanged" note &&
	! grep "^Undertaker-Show:" note &&
	test_expect_code 1 git undertaker --notes-ref=refs/notes/plain --show=all base..touch >all &&
	test_cmp fresh all &&
	git notes --ref=plain show touch >note &&
	grep "^Undertaker-Show: all$" note &&
	git checkout -q topic
'

test_expect_success '--show=all reuses its note of a commit without defects' '
	git undertaker --notes-ref=refs/notes/clean --show=all good^! >first &&
	git notes --ref=clean show good >note &&
	head -n 1 note >first-line &&
	echo "Undertaker-Show: all" >expect &&
	test_cmp expect first-line &&
	git undertaker --notes-ref=refs/notes/clean --show=all good^! >again &&
	test_cmp first again &&
	test $(git rev-list refs/notes/clean | wc -l) = 1
'

test_expect_success 'the work tree and index are untouched' '
	git status --porcelain >status &&
	grep -v "^??" status >tracked || true &&
	test_must_be_empty tracked
'

test_done
