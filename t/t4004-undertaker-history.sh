#!/bin/sh
test_description='git undertaker: what a commit really adds (merges, rewritten #if lines)'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup' '
	write_foo_bar_kconfig <<-\EOF &&
	config PLAIN
		bool "plain"
	EOF
	write_file a.c <<-\EOF &&
	int a;
	EOF
	write_file b.c <<-\EOF &&
	int b;
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'a merge of two branches that each add a defect reports nothing new' '
	git checkout -q -b left base &&
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_PLAN
	int a;
	#endif
	EOF
	git add . && test_tick && git commit -q -m "left typo" &&
	git checkout -q -b right base &&
	write_file b.c <<-\EOF &&
	#ifdef CONFIG_BAR
	#ifndef CONFIG_FOO
	int b;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m "right dead" &&
	git checkout -q left &&
	test_tick && git merge -q --no-edit right && git tag merged &&
	test_expect_code 1 git undertaker --no-notes ^base merged^1 merged^2 >branches &&
	grep "^a.c:1: dead block B0 (missing CONFIG_PLAN, global)" branches &&
	grep "^b.c:2: dead block B1 (kconfig, global)" branches &&
	test_expect_code 0 git undertaker --no-notes merged^! >out &&
	test_must_be_empty out &&
	git undertaker --no-notes --show=all merged^! >all &&
	grep "^b.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_FOO \[unchanged\]$" all &&
	! grep "\[fixed\]" all &&
	test_expect_code 1 git undertaker --no-notes base..merged >range &&
	test $(grep -c "^a.c:1: dead" range) = 1 &&
	test $(grep -c "^b.c:2: dead" range) = 1
'

test_expect_success 'a merge that takes the fix of one side reports no fix of its own' '
	git checkout -q -b fixer right &&
	write_file b.c <<-\EOF &&
	int b;
	EOF
	git add . && test_tick && git commit -q -m "fix b" &&
	git checkout -q merged && git checkout -q -b merged2 &&
	test_tick && git merge -q --no-edit fixer && git tag merged2 &&
	git undertaker --no-notes --show=all merged2^! >out &&
	! grep "b.c" out
'

test_expect_success 'reindenting and rewriting #ifdef into #if defined() keeps a typo unchanged' '
	git checkout -q -b rewrite base &&
	write_file c.c <<-\EOF &&
	#ifdef CONFIG_BAR
	#ifdef CONFIG_SYS_DDR_BLOCK3_BASE
	int old;
	#endif
	#ifndef CONFIG_FOO
	int never;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m "old defects" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^c.c:2: dead block B1 (missing CONFIG_SYS_DDR_BLOCK3_BASE, global)" out &&
	grep "^c.c:5: dead block B2 (kconfig, global)" out &&
	write_file c.c <<-\EOF &&
	/* reworked */
	#if defined(CONFIG_BAR)
	#  if defined(CONFIG_SYS_DDR_BLOCK3_BASE)
	int old;
	#  endif
	#  if !defined( CONFIG_FOO )
	int never;
	#  endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m "rewrite" &&
	test_expect_code 0 git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	git undertaker --no-notes --show=all HEAD >all &&
	grep "^c.c:3: dead block B1 (missing CONFIG_SYS_DDR_BLOCK3_BASE, global): #  if defined(CONFIG_SYS_DDR_BLOCK3_BASE) \[unchanged\]$" all &&
	grep "^c.c:6: dead block B2 (kconfig, global): #  if !defined( CONFIG_FOO ) \[unchanged\]$" all &&
	test_line_count = 3 all
'

test_expect_success 'a rewrite that changes which configurations compile the block is new' '
	write_file c.c <<-\EOF &&
	/* reworked */
	#if defined(CONFIG_BAR)
	#  if defined(CONFIG_SYS_DDR_BLOCK3_BASE)
	int old;
	#  endif
	#  if !defined(CONFIG_FOO) && defined(CONFIG_PLAIN)
	int never;
	#  endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m "rewrite again" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^c.c:6: dead block B2 (kconfig, global): #  if !defined(CONFIG_FOO) && defined(CONFIG_PLAIN)$" out &&
	! grep "c.c:3" out &&
	test_expect_code 1 git undertaker --no-notes --show=all HEAD >all &&
	grep "^c.c:6: dead block B2 (kconfig, global): #  if !defined( CONFIG_FOO ) \[fixed\]$" all
'

test_done
