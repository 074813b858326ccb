#!/bin/sh
test_description='git undertaker: accepted defects (Undertaker-Accept trailers, undertaker.accept, undertaker.acceptFile)'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup' '
	write_foo_bar_kconfig </dev/null &&
	write_file a.c <<-\EOF &&
	int a;
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'a trailer accepts the defect it names: exit 0, accepted in the note' '
	cat >>Kconfig <<-\EOF &&
	config AHEAD
		bool
	EOF
	write_file b.c <<-\EOF &&
	#ifdef CONFIG_AHEAD
	int ahead;
	#endif
	#ifdef CONFIG_TYPO
	int typo;
	#endif
	EOF
	git add . && test_tick &&
	git commit -q -F - <<-\EOF &&
	add AHEAD before the driver that selects it

	Undertaker-Accept: CONFIG_AHEAD
	EOF
	git tag ahead &&
	test_expect_code 1 git undertaker ahead >out &&
	grep "^b.c:4: dead block B1 (missing CONFIG_TYPO, global)" out &&
	! grep "CONFIG_AHEAD" out &&
	git notes --ref=undertaker show ahead >note &&
	grep "^b.c:1: dead block B0 (kconfig, global): #ifdef CONFIG_AHEAD \[accepted\]$" note &&
	grep "^Undertaker: 1 new, 0 fixed, 1 accepted$" note &&
	git notes --ref=undertaker-data show ahead >data &&
	grep "^{.*\"status\":\"accepted\"" data &&
	test_expect_code 1 git undertaker --show=all ahead >all &&
	grep "^b.c:1: dead block B0 (kconfig, global): #ifdef CONFIG_AHEAD \[accepted\]$" all
'

test_expect_success 'trailers are repeatable; path:line names one block' '
	git commit -q --amend -F - <<-\EOF &&
	add AHEAD before the driver that selects it

	Undertaker-Accept: CONFIG_AHEAD
	Undertaker-Accept: b.c:4
	EOF
	git tag ahead2 &&
	test_expect_code 0 git undertaker ahead2 >out &&
	test_must_be_empty out &&
	git notes --ref=undertaker show ahead2 >note &&
	grep "^b.c:4: dead block B1 (missing CONFIG_TYPO, global): #ifdef CONFIG_TYPO \[accepted\]$" note &&
	grep "^Undertaker: 0 new, 0 fixed, 2 accepted$" note &&
	test_expect_code 0 git undertaker --format=json ahead2 >json &&
	grep "^{\"commit\":\"$(git rev-parse ahead2)\",\"defects\":\[\]}$" json &&
	git undertaker --format=json --show=all ahead2 >json &&
	test $(grep -o "\"status\":\"accepted\"" json | wc -l) = 2
'

test_expect_success 'git config undertaker.accept (a glob) accepts in every commit' '
	git checkout -q -b other base &&
	write_file c.c <<-\EOF &&
	#ifdef CONFIG_LEGACY_ONE
	int one;
	#endif
	#ifdef CONFIG_BAR
	#ifndef CONFIG_FOO
	int never;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m "legacy" &&
	test_expect_code 1 git undertaker HEAD >out &&
	grep "LEGACY_ONE" out &&
	git config --add undertaker.accept "LEGACY_*" &&
	git config --add undertaker.accept "c.c:5" &&
	test_expect_code 0 git undertaker HEAD >out &&
	test_must_be_empty out &&
	git notes --ref=undertaker show HEAD >note &&
	grep "^c.c:1: dead block B0 (missing CONFIG_LEGACY_ONE, global): #ifdef CONFIG_LEGACY_ONE \[accepted\]$" note &&
	grep "^c.c:5: dead block B2 (kconfig, global): #ifndef CONFIG_FOO \[accepted\]$" note &&
	git config --unset-all undertaker.accept &&
	test_expect_code 1 git undertaker HEAD >out &&
	grep "LEGACY_ONE" out
'

test_expect_success 'undertaker.acceptFile: a file in the tree, read at each commit; bad lines warned of' '
	git checkout -q -f -b withfile base && git clean -q -f &&
	write_file d.c <<-\EOF &&
	#ifdef CONFIG_OLD_ONE
	int one;
	#endif
	#ifdef CONFIG_OLD_TWO
	int two;
	#endif
	#ifdef CONFIG_KEPT
	int kept;
	#endif
	EOF
	write_file .undertaker-accept <<-\EOF &&
	# known defects

	CONFIG_OLD_ONE
	d.c:4   # the second block
	not a pattern
	EOF
	git add . && test_tick && git commit -q -m "old code, with its baseline" &&
	test_expect_code 1 git -c undertaker.acceptFile=.undertaker-accept undertaker --no-notes HEAD >out 2>err &&
	grep "^d.c:7: dead block B2 (missing CONFIG_KEPT" out &&
	! grep "OLD_" out &&
	grep "warning: .undertaker-accept:5: not a CONFIG name or path:line, ignored: not a pattern" err &&
	test_line_count = 1 err &&
	test_expect_code 1 git -c undertaker.acceptFile=.undertaker-accept undertaker --no-notes --show=all HEAD >all 2>/dev/null &&
	grep "^d.c:1: .*\[accepted\]$" all &&
	grep "^d.c:4: .*\[accepted\]$" all &&
	# The file as it is at the commit checked: once removed, it accepts nothing.
	git rm -q .undertaker-accept &&
	printf "#ifdef CONFIG_OLD_ONE\nint again;\n#endif\n" >d2.c &&
	git add d2.c && test_tick && git commit -q -m "no baseline" &&
	test_expect_code 1 git -c undertaker.acceptFile=.undertaker-accept undertaker --no-notes HEAD >out &&
	grep "^d2.c:1: dead block B0 (missing CONFIG_OLD_ONE" out
'

test_expect_success 'the accept file is part of a note'"'"'s key: a changed file checks again' '
	git checkout -q withfile^ &&
	test_expect_code 1 git -c undertaker.acceptFile=.undertaker-accept undertaker --notes-ref=af HEAD >out 2>/dev/null &&
	grep KEPT out &&
	git notes --ref=af show HEAD >note1 &&
	test_expect_code 1 git -c undertaker.acceptFile=withfile:nothing-there undertaker --notes-ref=af HEAD >out &&
	git notes --ref=af show HEAD >note2 &&
	! test_cmp note1 note2 >/dev/null &&
	grep "OLD_ONE" out &&
	git checkout -q withfile
'

test_expect_success '--write-accept-file from a census accepts everything the census found; <rev>:<path>' '
	test_expect_code 1 git undertaker --all --write-accept-file=baseline withfile^ >census &&
	grep "^# " baseline &&
	grep "^d.c:1  # d.c:1: dead block B0" baseline &&
	grep -v "^#" baseline | wc -l >n &&
	test $(cat n) -ge 3 &&
	test $(cat n) = $(grep -c "^[a-zA-Z].*:[0-9]*: " census) &&
	# Kept on a branch of its own, named as <rev>:<path>.
	git checkout -q --orphan baseline-branch &&
	git rm -q -r --cached . && git add baseline && test_tick && git commit -q -m baseline &&
	git checkout -q -f withfile &&
	test_expect_code 1 git undertaker --no-notes base..withfile^ >before &&
	grep "KEPT" before &&
	git -c undertaker.acceptFile=baseline-branch:baseline undertaker --no-notes base..withfile^ >after &&
	test_must_be_empty after &&
	git -c undertaker.acceptFile=baseline-branch:baseline undertaker --no-notes --show=all base..withfile^ >all &&
	test $(grep -c "\[accepted\]$" all) = $(cat n) &&
	test_expect_code 129 git undertaker --write-accept-file=x HEAD 2>err &&
	grep "needs --all" err &&
	test_must_fail git -c undertaker.acceptFile=nosuchrev:baseline undertaker --no-notes HEAD 2>err &&
	grep "nosuchrev:baseline" err
'

test_done
