#!/bin/sh
test_description='git undertaker --explain: the Kconfig lines that decide, where a name went'
. ./test-lib.sh

test_expect_success 'setup' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	config SEL
		bool "sel"
		select FOO
	config OLD_NAME
		bool "old"
	config AHEAD
		bool
	EOF
	write_file a.c <<-\EOF &&
	int a;
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'a promptless option nothing selects: its Kconfig line' '
	write_file ahead.c <<-\EOF &&
	#ifdef CONFIG_AHEAD
	int ahead;
	#endif
	#if IS_ENABLED(CONFIG_AHEAD)
	int enabled;
	#endif
	EOF
	git add . && test_tick && git commit -q -m ahead &&
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "^ahead.c:1: dead block B0 (kconfig, global): #ifdef CONFIG_AHEAD$" out &&
	grep "^ahead.c:4: dead block B1 (kconfig, global): #if IS_ENABLED(CONFIG_AHEAD)$" out &&
	test $(grep -c "^    CONFIG_AHEAD (Kconfig:8) has no prompt and nothing selects it$" out) = 2
'

test_expect_success 'a select: the selecting line' '
	write_file sel.c <<-\EOF &&
	#ifdef CONFIG_SEL
	#ifdef CONFIG_FOO
	int sel;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m sel &&
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "^sel.c:2: undead block B1 (kconfig, global): #ifdef CONFIG_FOO$" out &&
	grep "^    CONFIG_FOO is selected by CONFIG_SEL (Kconfig:3)$" out
'

test_expect_success 'a renamed option: the commit that renamed it, and the new name' '
	sed -i "s/^config OLD_NAME/config NEW_NAME/" Kconfig &&
	git add . && test_tick && git commit -q -m "rename OLD_NAME" && git tag renamed &&
	test_commit unrelated &&
	write_file late.c <<-\EOF &&
	#ifdef CONFIG_OLD_NAME
	int late;
	#endif
	EOF
	git add . && test_tick && git commit -q -m late &&
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "^late.c:1: dead block B0 (missing CONFIG_OLD_NAME, global): #ifdef CONFIG_OLD_NAME$" out &&
	grep "^    CONFIG_OLD_NAME was defined at Kconfig:6 until $(git rev-parse --short=12 renamed) (\"rename OLD_NAME\"), which renamed it CONFIG_NEW_NAME$" out &&
	test $(grep -c "CONFIG_OLD_NAME was defined" out) = 1
'

test_expect_success 'history is walked only for the names of the defects reported' '
	echo "int more;" >>late.c &&
	git add . && test_tick && git commit -q -m "late.c: more, beside its old defect" &&
	UNDERTAKER_STATS=1 git undertaker --no-notes --explain HEAD >out 2>err &&
	! grep "^late.c" out &&
	! grep "^history walk" err &&
	UNDERTAKER_STATS=1 git undertaker --no-notes --explain --show=all HEAD >out 2>err &&
	grep "^late.c:1: dead block B0 (missing CONFIG_OLD_NAME, global): #ifdef CONFIG_OLD_NAME \[unchanged\]$" out &&
	grep "^    CONFIG_OLD_NAME was defined at Kconfig:6 until $(git rev-parse --short=12 renamed)" out &&
	test $(grep -c "^history walk CONFIG_OLD_NAME" err) = 1 &&
	git undertaker --no-notes --explain --format=json HEAD >out &&
	! grep "removed" out
'

test_done
