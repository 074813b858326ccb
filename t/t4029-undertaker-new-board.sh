#!/bin/sh
test_description='git undertaker: a Kconfig change that only adds a symbol every old configuration leaves off (a new board) checks again only what names it'
. ./test-lib.sh

test_expect_success 'setup: a target choice, a common option, a file whose block needs it off' '
	write_file Kconfig <<-\EOF &&
	choice
		prompt "Target"
	config TARGET_A
		bool "a"
	config TARGET_B
		bool "b"
	endchoice
	config COMMON
		bool
	config SYS_BOARD
		string
		default "a" if TARGET_A
	source "board/b/Kconfig"
	EOF
	write_file board/b/Kconfig <<-\EOF &&
	if TARGET_B
	config SYS_BOARD
		default "b"
	endif
	EOF
	write_file common.c <<-\EOF &&
	#ifndef CONFIG_COMMON
	int no_common;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base && git tag base &&
	test_expect_code 1 git undertaker --no-notes --all base >out &&
	grep "^common.c:1: undead block B0" out
'

test_expect_success 'a new board that selects COMMON: nothing new (the census confirms the block is no longer undead)' '
	cat >>Kconfig <<-\EOF &&
	source "board/c/Kconfig"
	EOF
	write_file board/c/Kconfig <<-\EOF &&
	config TARGET_C
		bool "c"
		depends on TARGET_B || TARGET_A
		select COMMON
	if TARGET_C
	config SYS_BOARD
		default "c"
	endif
	EOF
	git add . && test_tick && git commit -q -m "board c" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	test_expect_code 0 git undertaker --no-notes --all HEAD >out
'

test_expect_success 'an added symbol that is y in old configurations is no inert one: the block turned dead is new' '
	git reset -q --hard base &&
	cat >>Kconfig <<-\EOF &&
	config ALWAYS
		def_bool y
		select COMMON
	EOF
	git add . && test_tick && git commit -q -m "always common" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^common.c:1: dead block B0" out
'

test_done
