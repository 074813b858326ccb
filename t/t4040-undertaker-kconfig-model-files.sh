#!/bin/sh
test_description='git undertaker: only the Kconfig files of the tree'"'"'s Kconfig model define names

kconfig'"'"'s own test inputs (scripts/kconfig/tests/<case>/Kconfig) are Kconfig
trees of their own that nothing of the tree sources: what they define is
defined nowhere for the tree, in Kconfig lines, defconfigs and C files alike,
and is not offered as the nearest name. A file the top reaches through a
variable, a glob or an unquoted path, and a root of its own that sources the
tree (a Zephyr application'"'"'s Kconfig), do define names.'
. ./test-lib.sh

test_expect_success 'setup: a tree, a kconfig test input, an application root' '
	write_file Kconfig <<-\EOF &&
	mainmenu "Test"
	config FOO
		bool "foo"
	source "arch/$(SRCARCH)/Kconfig"
	source drivers/Kconfig
	osource "$(KCONFIG_BINARY_DIR)/soc/Kconfig.soc"
	EOF
	write_file soc/vendor/Kconfig.soc <<-\EOF &&
	config SOC_OPT
		bool "sourced by a file the build generates"
	EOF
	write_file arch/x86/Kconfig <<-\EOF &&
	config X86
		def_bool y
	config ARCH_OPT
		bool "arch option"
	EOF
	write_file drivers/Kconfig <<-\EOF &&
	config DRV
		bool "drv"
		depends on FOO
	rsource "*/Kconfig"
	EOF
	write_file drivers/net/Kconfig <<-\EOF &&
	config NET_DRV
		bool "net"
	EOF
	write_file scripts/kconfig/tests/err_dep/Kconfig <<-\EOF &&
	config SPECIAL_FEATURE
		bool "a name only the test case defines"
		depends on A_NAME_OF_THE_CASE
		select ANOTHER
	source "Kconfig.inc"
	EOF
	write_file scripts/kconfig/tests/err_dep/Kconfig.inc <<-\EOF &&
	config INC_ONLY
		bool "included by the test case"
	EOF
	write_file samples/app/Kconfig <<-\EOF &&
	config APP_OPT
		bool "an application option"
	source "$(ZEPHYR_BASE)/drivers/Kconfig"
	EOF
	write_file main.c <<-\EOF &&
	#if defined(CONFIG_APP_OPT) || defined(CONFIG_FOO)
	int app;
	#endif
	#if defined(CONFIG_NET_DRV) || defined(CONFIG_ARCH_OPT) || defined(CONFIG_SOC_OPT)
	int net;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'what the top, a glob, an unquoted path, a generated file and an application reach defines names; the test input is not checked' '
	git undertaker --no-notes --all base >out &&
	test_must_be_empty out
'

test_expect_success 'a name only a kconfig test input defines is undefined, in Kconfig and C' '
	cat >>drivers/Kconfig <<-\EOF &&
	config USER
		bool "user"
		depends on SPECIAL_FEATURE || INC_ONLY
	EOF
	write_file feature.c <<-\EOF &&
	#ifdef CONFIG_SPECIAL_FEATURE
	int feature;
	#endif
	EOF
	write_file arch/x86/configs/x_defconfig <<-\EOF &&
	CONFIG_FOO=y
	CONFIG_SPECIAL_FEATURE=y
	EOF
	git add . && test_tick && git commit -q -m user && git tag user &&
	test_expect_code 1 git undertaker --no-notes user >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short user) user
	arch/x86/configs/x_defconfig:2: undefined (missing CONFIG_SPECIAL_FEATURE, global): CONFIG_SPECIAL_FEATURE=y
	drivers/Kconfig:5: dead (missing CONFIG_SPECIAL_FEATURE CONFIG_INC_ONLY, global): config USER (depends on SPECIAL_FEATURE || INC_ONLY)
	drivers/Kconfig:7: undefined (missing CONFIG_SPECIAL_FEATURE CONFIG_INC_ONLY, global): depends on SPECIAL_FEATURE || INC_ONLY
	feature.c:1: dead block B0 (missing CONFIG_SPECIAL_FEATURE, global): #ifdef CONFIG_SPECIAL_FEATURE
	EOF
	test_cmp expect out
'

test_expect_success '--explain does not offer the test input'"'"'s name as the nearest' '
	cat >>drivers/Kconfig <<-\EOF &&
	config USER2
		bool "user2"
		depends on SPECIAL_FEATUR
	EOF
	git add . && test_tick && git commit -q -m user2 &&
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "undefined (missing CONFIG_SPECIAL_FEATUR, global)" out &&
	! grep "did you mean CONFIG_SPECIAL_FEATURE" out &&
	! grep "scripts/kconfig/tests" out
'

test_expect_success 'a Kconfig file no source line names defines nothing, and is checked with its own names' '
	write_file board/orphan/Kconfig <<-\EOF &&
	if TARGET_ORPHAN
	config ORPHAN_OPT
		bool "an option of a board nothing sources"
	config ORPHAN_OTHER
		bool "another, on the first"
		depends on ORPHAN_OPT
	endif
	EOF
	write_file orphan.c <<-\EOF &&
	#if defined(CONFIG_ORPHAN_OPT) || defined(CONFIG_FOO)
	int orphan;
	#endif
	EOF
	git add . && test_tick && git commit -q -m orphan &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^board/orphan/Kconfig:1: undefined (missing CONFIG_TARGET_ORPHAN, global): if TARGET_ORPHAN$" out &&
	grep "^orphan.c:1: undefined block B0 (missing CONFIG_ORPHAN_OPT, global)" out &&
	test_line_count = 3 out
'

test_expect_success 'a file of the test input that the tree sources defines its names' '
	echo "source \"scripts/kconfig/tests/err_dep/Kconfig.inc\"" >>Kconfig &&
	git add . && test_tick && git commit -q -m "source the include" &&
	test_expect_code 1 git undertaker --no-notes --all HEAD -- drivers/Kconfig >out &&
	grep "^drivers/Kconfig:7: undefined (missing CONFIG_SPECIAL_FEATURE, global): depends on SPECIAL_FEATURE || INC_ONLY$" out &&
	grep "^drivers/Kconfig:10: undefined (missing CONFIG_SPECIAL_FEATUR, global)" out &&
	! grep CONFIG_INC_ONLY out
'

# A source path with many variables against deep paths: each variable may
# stand for any part of a path, and trying every split took longer than
# any user waits (14 variables, a path of 90 characters: over 20 s).
test_expect_success 'a source line of many variables is matched in time' '
	git init -q vars &&
	(
		cd vars &&
		printf "mainmenu \"m\"\nconfig A\n\tbool \"a\"\nsource \"\$(A)\$(B)\$(C)\$(D)\$(E)\$(F)\$(G)\$(H)\$(I)\$(J)\$(K)\$(L)\$(M)\$(N)x\"\n" >Kconfig &&
		d=aaaaaaaaaa/bbbbbbbbbbbbbbb/cccccccccccccccccc/dddddddddddddddddddddd/eeeeeeeeeeeeeeeeeeeee &&
		mkdir -p $d &&
		printf "config B\n\tbool \"b\"\n" >$d/Kconfig &&
		printf "#ifdef CONFIG_A\nint a;\n#endif\n" >a.c &&
		git add . && test_tick && git commit -q -m vars &&
		test_expect_code 1 timeout 20 git undertaker --no-notes --all HEAD >out 2>err &&
		grep "^git undertaker: error: Kconfig:4: can.t open file" err
	)
'

test_done
