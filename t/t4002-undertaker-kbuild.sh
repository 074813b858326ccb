#!/bin/sh
test_description='git undertaker: file presence conditions from Kbuild (the kbuild cause)'
. ./test-lib.sh

test_expect_success 'setup' '
	write_file Kconfig <<-\EOF &&
	config MODULES
		bool "modules"
		modules
	config FOO
		tristate "foo"
	config BAR
		bool "bar"
	config NEVER
		bool "never"
		depends on BAR && !BAR
	EOF
	write_file Kbuild <<-\EOF &&
	obj-y += drivers/
	EOF
	write_file drivers/Makefile <<-\EOF &&
	obj-$(CONFIG_FOO) += foo.o
	obj-$(CONFIG_NEVER) += never.o
	obj-y += always.o
	EOF
	write_file drivers/foo.c <<-\EOF &&
	#if !IS_ENABLED(CONFIG_FOO)
	int not_foo;
	#endif
	#if IS_ENABLED(CONFIG_FOO)
	int foo;
	#endif
	#ifdef CONFIG_BAR
	int bar;
	#endif
	EOF
	write_file drivers/never.c <<-\EOF &&
	#ifdef CONFIG_BAR
	int bar;
	#endif
	EOF
	write_file drivers/always.c <<-\EOF &&
	#ifndef CONFIG_FOO
	int not_foo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base
'

test_expect_success '--dump-model=files gives each file its condition' '
	git undertaker --dump-model=files >files &&
	grep "^drivers/foo.c	CONFIG_FOO$" files &&
	grep "^drivers/always.c	true$" files
'

test_expect_success 'blocks dead and undead only with the file condition: kbuild cause' '
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^drivers/foo.c:1: dead block B0 (kbuild, global): #if !IS_ENABLED(CONFIG_FOO)$" out &&
	grep "^drivers/foo.c:4: undead block B1 (kbuild, global): #if IS_ENABLED(CONFIG_FOO)$" out &&
	! grep "drivers/foo.c:7" out &&
	! grep "drivers/always.c" out
'

test_expect_success '#ifndef CONFIG_FOO of a tristate is alive (FOO=m)' '
	! grep "drivers/always.c" out
'

test_expect_success 'a file kbuild can never compile: one defect for the whole file' '
	grep "^drivers/never.c:1: dead block B00 (kbuild, global)" out &&
	! grep "drivers/never.c:1: dead block B0 " out
'

test_expect_success 'a misspelled name in a file kbuild never compiles is still undefined' '
	write_file drivers/never.c <<-\EOF &&
	#ifdef CONFIG_BAR
	int bar;
	#endif
	#ifdef CONFIG_BRA
	int typo;
	#endif
	EOF
	git add drivers && test_tick && git commit -q -m typo &&
	test_expect_code 1 git undertaker --no-notes HEAD >typo &&
	grep "^drivers/never.c:4: undefined block B1 (missing CONFIG_BRA, global): #ifdef CONFIG_BRA$" typo &&
	! grep "B00\|B0 " typo &&
	test_expect_code 1 git undertaker --no-notes --all HEAD >all &&
	grep "^drivers/never.c:1: dead block B00 (kbuild, global)" all &&
	grep "^drivers/never.c:4: undefined block B1 (missing CONFIG_BRA, global): #ifdef CONFIG_BRA$" all &&
	git reset -q --hard HEAD^
'

test_expect_success '--no-kbuild ignores the Makefiles (the option NEVER is still dead)' '
	test_expect_code 1 git undertaker --no-notes --no-kbuild HEAD >out &&
	tail -n +2 out >actual &&
	echo "Kconfig:8: dead (kconfig, global): config NEVER (depends on BAR && !BAR)" >expect &&
	test_cmp expect actual
'

test_expect_success 'a commit whose files have no build condition and no Kconfig block builds no model' '
	git init -q nomodel &&
	(
		cd nomodel &&
		printf "config FOO\n\tbool \"foo\"\n" >Kconfig &&
		printf "obj-\$(CONFIG_FOO) += foo.o\n" >Makefile &&
		printf "int foo;\n" >foo.c &&
		printf "#ifndef GUARD_H\n#define GUARD_H\nint g;\n#endif\n" >guard.h &&
		git add . && test_tick && git commit -q -m base &&
		printf "#ifndef GUARD_H\n#define GUARD_H\nint g, h;\n#endif\n" >guard.h &&
		git add . && test_tick && git commit -q -m header &&
		UNDERTAKER_STATS=1 git undertaker --no-notes HEAD^! >out 2>err &&
		test_must_be_empty out &&
		! grep "^model build" err &&
		printf "int foo;\n#ifdef CONFIG_FOO\nint bar;\n#endif\n" >foo.c &&
		git add . && test_tick && git commit -q -m block &&
		UNDERTAKER_STATS=1 git undertaker --no-notes HEAD^! >out 2>err &&
		test_must_be_empty out &&
		grep "^model build" err
	)
'

test_done
