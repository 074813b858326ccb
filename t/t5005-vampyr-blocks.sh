#!/bin/sh
test_description='git vampyr: what is a block to cover (include guards are not)'
. ./test-lib.sh

test_expect_success 'setup' '
	write_file Kconfig <<-\EOF &&
	mainmenu "blocks"
	config A
		bool "a"
	EOF
	write_file foo.h <<-\EOF &&
	/* SPDX-License-Identifier: GPL-2.0 */
	#ifndef _FOO_H_
	#define _FOO_H_
	#ifdef CONFIG_A
	int a;
	#endif
	#endif /* _FOO_H_ */
	EOF
	write_file bar.h <<-\EOF &&
	#if !defined(BAR_H)
	#define BAR_H 1
	int bar;
	#endif
	EOF
	write_file baz.c <<-\EOF &&
	#ifndef BAZ
	int x;
	#endif
	int y;
	EOF
	git add . &&
	test_tick &&
	git commit -q -m base
'

test_expect_success KCONF 'an include guard is no block; an #ifndef with code after it is one' '
	git vampyr --no-notes --expand --kconfig="\"$KCONF\" --alldefconfig Kconfig" -o out >actual &&
	grep "^1 configuration compiles 2 of 2 blocks" actual &&
	grep "foo.h:4 B1" actual &&
	grep "baz.c:1 B0" actual &&
	! grep "foo.h:2" actual &&
	! grep "bar.h" actual &&
	! grep "_FOO_H_" actual &&
	grep "^outside	baz.c:1 B0	also needs BAZ (not Kconfig)" actual
'

test_done
