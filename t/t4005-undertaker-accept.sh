#!/bin/sh
test_description='git undertaker: accepted defects (Undertaker-Accept trailers, undertaker.accept)'
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

test_done
