#!/bin/sh
test_description='cpp: #if expressions abstracted to presence conditions'
. ./test-lib.sh

UBOOT_MACRO='CONFIG_IS_ENABLED(x)=CONFIG_x || CONFIG_SPL_x || CONFIG_TPL_x || CONFIG_VPL_x'

# pc_of <block> <file> [options]: the presence condition test-cpp prints.
pc_of () {
	b=$1 f=$2
	shift 2
	test-cpp blocks "$@" "$f" | sed -n "s/^$b .* pc=\(.*\) directive=.*/\1/p"
}

test_expect_success 'the IS_ENABLED family keeps the CONFIG name with its variant' '
	echo "#if IS_ENABLED(CONFIG_A) && IS_BUILTIN(CONFIG_B) || IS_MODULE(CONFIG_C) || IS_REACHABLE(CONFIG_D)" >f.c &&
	echo "#endif" >>f.c &&
	echo "(IS_ENABLED(CONFIG_A) && IS_BUILTIN(CONFIG_B)) || IS_MODULE(CONFIG_C) || IS_REACHABLE(CONFIG_D)" >expect &&
	pc_of B0 f.c >out &&
	test_cmp expect out
'

test_expect_success 'defined X, defined(X), defined ( X ) and a bare X' '
	printf "#if defined CONFIG_E && defined(CONFIG_F) && defined ( CONFIG_G ) && CONFIG_H\n#endif\n" >f.c &&
	echo "defined(CONFIG_E) && defined(CONFIG_F) && defined(CONFIG_G) && CONFIG_H" >expect &&
	pc_of B0 f.c >out &&
	test_cmp expect out
'

test_expect_success 'names stay as written; non-CONFIG names are free variables' '
	printf "#if defined(CONFIG_FOO_MODULE) || FOO || defined(BAR) || !defined __KERNEL__\n#endif\n" >f.c &&
	echo "defined(CONFIG_FOO_MODULE) || FOO || defined(BAR) || !defined(__KERNEL__)" >expect &&
	pc_of B0 f.c >out &&
	test_cmp expect out
'

test_expect_success 'comparisons, arithmetic and unknown calls are opaque atoms keyed by text' '
	write_file f.c <<-\EOF &&
	#if LINUX_VERSION_CODE >= KERNEL_VERSION(4,1,0) && LINUX_VERSION_CODE>=KERNEL_VERSION( 4, 1, 0 )
	#endif
	#if CONFIG_NR_CPUS > 1 && (CONFIG_HZ * 2) % 3 == 0
	#endif
	#if (CONFIG_A - 1) == 0 && ~CONFIG_B
	#endif
	EOF
	cat >expect <<-\EOF &&
	{LINUX_VERSION_CODE >= KERNEL_VERSION(4, 1, 0)} && {LINUX_VERSION_CODE >= KERNEL_VERSION(4, 1, 0)}
	{CONFIG_NR_CPUS > 1} && !{(CONFIG_HZ * 2) % 3}
	!{CONFIG_A - 1} && {~CONFIG_B}
	EOF
	{ pc_of B0 f.c && pc_of B1 f.c && pc_of B2 f.c; } >out &&
	test_cmp expect out &&
	test-cpp symbols f.c >out &&
	printf "B0\nB1 CONFIG_NR_CPUS CONFIG_HZ\nB2 CONFIG_A CONFIG_B\n" >expect &&
	test_cmp expect out
'

test_expect_success 'boolean structure: ternary, == 0, != 0, double negation' '
	printf "#if CONFIG_A ? CONFIG_B : CONFIG_C\n#endif\n#if CONFIG_A != 0 && CONFIG_B == 0 && !!CONFIG_C && -CONFIG_D\n#endif\n" >f.c &&
	printf "%s\n" "(CONFIG_A && CONFIG_B) || (!CONFIG_A && CONFIG_C)" \
		"CONFIG_A && !CONFIG_B && CONFIG_C && CONFIG_D" >expect &&
	{ pc_of B0 f.c && pc_of B1 f.c; } >out &&
	test_cmp expect out
'

test_expect_success '#if 0, #if 1 and folded constants are flagged constant' '
	write_file f.c <<-\EOF &&
	#if 0
	#elif 1
	#else
	#endif
	#if 0 && CONFIG_X
	#elif CONFIG_Y || 1
	#endif
	#if (2 + 3) * 4 == 20 && '"'"'a'"'"' == 97 && 0x10 == 16 && 1UL << 3 == 8 && -1 < 0 && ~0 == -1 && 7 / 2 == 3 && 010 == 8
	#endif
	#if 1 / 0
	#endif
	#if CONFIG_Z
	#else
	#endif
	EOF
	test-cpp blocks f.c | sed "s/ directive=.*//" >out &&
	cat >expect <<-\EOF &&
	B0 1-2 parent=B00 kind=if constant pc=0
	B1 2-3 parent=B00 kind=elif constant pc=1
	B2 3-4 parent=B00 kind=else constant pc=0
	B3 5-6 parent=B00 kind=if constant pc=0
	B4 6-7 parent=B00 kind=elif constant pc=1
	B5 8-9 parent=B00 kind=if constant pc=1
	B6 10-11 parent=B00 kind=if pc={1 / 0}
	B7 12-13 parent=B00 kind=if pc=CONFIG_Z
	B8 13-14 parent=B00 kind=else pc=!CONFIG_Z
	EOF
	test_cmp expect out
'

test_expect_success 'U-Boot CONFIG_IS_ENABLED(FOO) and (CONFIG_FOO) expand, marked [macro]' '
	write_file uboot.c <<-\EOF &&
	#if CONFIG_IS_ENABLED(DM_I2C)
	#endif
	#if CONFIG_IS_ENABLED(CONFIG_DM_SPI) && !CONFIG_IS_ENABLED(OF_CONTROL)
	#endif
	#if CONFIG_IS_ENABLED(A, B)
	#endif
	EOF
	cat >expect <<-\EOF &&
	CONFIG_DM_I2C[macro] || CONFIG_SPL_DM_I2C[macro] || CONFIG_TPL_DM_I2C[macro] || CONFIG_VPL_DM_I2C[macro]
	(CONFIG_DM_SPI[macro] || CONFIG_SPL_DM_SPI[macro] || CONFIG_TPL_DM_SPI[macro] || CONFIG_VPL_DM_SPI[macro]) && !(CONFIG_OF_CONTROL[macro] || CONFIG_SPL_OF_CONTROL[macro] || CONFIG_TPL_OF_CONTROL[macro] || CONFIG_VPL_OF_CONTROL[macro])
	{CONFIG_IS_ENABLED(A, B)}
	EOF
	for b in B0 B1 B2; do pc_of $b uboot.c --macro="$UBOOT_MACRO" || return 1; done >out &&
	test_cmp expect out &&
	test-cpp symbols --macro="$UBOOT_MACRO" uboot.c >out &&
	cat >expect <<-\EOF &&
	B0 CONFIG_DM_I2C[macro] CONFIG_SPL_DM_I2C[macro] CONFIG_TPL_DM_I2C[macro] CONFIG_VPL_DM_I2C[macro]
	B1 CONFIG_DM_SPI[macro] CONFIG_SPL_DM_SPI[macro] CONFIG_TPL_DM_SPI[macro] CONFIG_VPL_DM_SPI[macro] CONFIG_OF_CONTROL[macro] CONFIG_SPL_OF_CONTROL[macro] CONFIG_TPL_OF_CONTROL[macro] CONFIG_VPL_OF_CONTROL[macro]
	B2
	EOF
	test_cmp expect out
'

test_expect_success 'without the macro, CONFIG_IS_ENABLED(X) is an opaque call' '
	echo "{CONFIG_IS_ENABLED(DM_I2C)}" >expect &&
	pc_of B0 uboot.c >out &&
	test_cmp expect out
'

test_expect_success 'object-like macros, ## pasting, nested macros, no endless recursion' '
	printf "#if CONFIG_VAL(SYS_LEN) > 0x400 && MY_FLAG\n#endif\n#if PASTE(FOO) && RECURSE\n#endif\n" >m.c &&
	pc_of B0 m.c --macro="CONFIG_VAL(option)=CONFIG_SPL_option" \
		--macro="MY_FLAG=defined(CONFIG_Y)" >out &&
	echo "{CONFIG_SPL_SYS_LEN > 0x400} && defined(CONFIG_Y)[macro]" >expect &&
	test_cmp expect out &&
	pc_of B1 m.c --macro="PASTE(a)=CONFIG_ ## a ## _MODULE" --macro="MY_FLAG=defined(CONFIG_Y)" \
		--macro="RECURSE=RECURSE || MY_FLAG" >out &&
	echo "CONFIG_FOO_MODULE[macro] && (RECURSE[macro] || defined(CONFIG_Y)[macro])" >expect &&
	test_cmp expect out
'

test_expect_success 'a malformed macro definition is a usage error' '
	test_expect_code 129 test-cpp blocks --macro="BAD(" m.c 2>err &&
	grep "bad macro definition" err
'

test_expect_success '#define and #undef of a CONFIG name untie it from Kconfig from there on' '
	write_file def.c <<-\EOF &&
	#ifdef CONFIG_A
	#endif
	#define CONFIG_A 1
	#if defined(CONFIG_A) && IS_ENABLED(CONFIG_B) && CONFIG_C
	#endif
	#undef CONFIG_B
	# define CONFIG_C_MODULE
	#if IS_ENABLED(CONFIG_B) || IS_MODULE(CONFIG_C) || IS_BUILTIN(CONFIG_C) || CONFIG_C
	#endif
	#define NOT_CONFIG(x) x
	EOF
	printf "%s\n" "defined(CONFIG_A)" \
		"defined(CONFIG_A)[file] && IS_ENABLED(CONFIG_B) && CONFIG_C" \
		"IS_ENABLED(CONFIG_B)[file] || IS_MODULE(CONFIG_C)[file] || IS_BUILTIN(CONFIG_C) || CONFIG_C" >expect &&
	for b in B0 B1 B2; do pc_of $b def.c || return 1; done >out &&
	test_cmp expect out &&
	test-cpp symbols def.c >out &&
	printf "B0 CONFIG_A\nB1 CONFIG_A[file] CONFIG_B CONFIG_C\nB2 CONFIG_B[file] CONFIG_C\n" >expect &&
	test_cmp expect out &&
	test-cpp defines def.c >out &&
	printf "3 define CONFIG_A\n6 undef CONFIG_B\n7 define CONFIG_C_MODULE\n10 define NOT_CONFIG\n" >expect &&
	test_cmp expect out
'

test_expect_success 'keep: the IS_ENABLED family and project macros evaluate like the kernel' '
	write_file k.c <<-\EOF &&
	#if IS_ENABLED(CONFIG_A)
	enabled
	#endif
	#if IS_BUILTIN(CONFIG_A)
	builtin
	#endif
	#if IS_MODULE(CONFIG_A)
	module
	#endif
	#if IS_REACHABLE(CONFIG_A)
	reachable
	#endif
	#if CONFIG_IS_ENABLED(B)
	b
	#endif
	EOF
	keep () {
		test-cpp keep --macro="$UBOOT_MACRO" k.c -UCONFIG_B -UCONFIG_TPL_B -UCONFIG_VPL_B "$@" >kept &&
		{ grep . kept || :; }
	} &&
	keep -UCONFIG_A -UCONFIG_A_MODULE -UMODULE -UCONFIG_SPL_B >out &&
	test_must_be_empty out &&
	keep -DCONFIG_A -UCONFIG_A_MODULE -UMODULE -DCONFIG_SPL_B >out &&
	printf "enabled\nbuiltin\nreachable\nb\n" >expect &&
	test_cmp expect out &&
	keep -UCONFIG_A -DCONFIG_A_MODULE -UMODULE -UCONFIG_SPL_B >out &&
	printf "enabled\nmodule\n" >expect &&
	test_cmp expect out &&
	keep -UCONFIG_A -DCONFIG_A_MODULE -DMODULE -UCONFIG_SPL_B >out &&
	printf "enabled\nmodule\nreachable\n" >expect &&
	test_cmp expect out &&
	keep -DCONFIG_A=2 -UCONFIG_A_MODULE -UMODULE -UCONFIG_SPL_B >out &&
	test_must_be_empty out
'

test_expect_success 'keep: an undecided block keeps its directives and lines' '
	printf "#ifdef CONFIG_A\na\n#else\nb\n#endif\n#if CONFIG_B > 2\nc\n#endif\n" >u.c &&
	test-cpp keep u.c -UCONFIG_B >out &&
	printf "#ifdef CONFIG_A\na\n#else\nb\n#endif\n\n\n\n" >expect &&
	test_cmp expect out &&
	test-cpp keep u.c -DCONFIG_A -DCONFIG_B=3 >out &&
	printf "\na\n\n\n\n\nc\n\n" >expect &&
	test_cmp expect out
'

test_done
