#!/bin/sh
test_description='git undertaker on a U-Boot-style tree: CONFIG_IS_ENABLED with its SPL/TPL/VPL variants, no flags'
. ./test-lib.sh

# The Kconfig of these tests: SPL and TPL, a symbol and its SPL_ variant
# twice over, a hex; then the lines on standard input.
write_uboot_kconfig () {
	{
		cat <<-\EOF &&
		mainmenu "U-Boot Configuration"
		config SPL
			bool "SPL"
		config TPL
			bool "TPL"
			depends on SPL
		config DM_GPIO
			bool "GPIO"
		config SPL_DM_GPIO
			bool "GPIO in SPL"
			depends on SPL
		config OF_CONTROL
			def_bool y
		config SPL_OF_CONTROL
			bool "OF in SPL"
			depends on SPL
		config SYS_MALLOC_LEN
			hex "malloc"
			default 0x1000
		EOF
		cat
	} >Kconfig
}

test_expect_success 'setup: Kconfig, include/linux/kconfig.h, the xPL makefile' '
	write_uboot_kconfig </dev/null &&
	write_file include/linux/kconfig.h <<-\EOF &&
	/* CONFIG_IS_ENABLED(FOO): CONFIG_FOO, or CONFIG_SPL_FOO in SPL, ... */
	#define CONFIG_IS_ENABLED(option) config_enabled(CONFIG_VAL(option))
	EOF
	write_file scripts/Makefile.xpl <<-\EOF &&
	KBUILD_CPPFLAGS += -DCONFIG_SPL_BUILD
	ifeq ($(CONFIG_TPL_BUILD),y)
	KBUILD_CPPFLAGS += -DCONFIG_TPL_BUILD
	endif
	EOF
	write_file drivers/gpio.c <<-\EOF &&
	#if CONFIG_IS_ENABLED(DM_GPIO)
	int gpio;
	#endif
	#if CONFIG_IS_ENABLED(OF_CONTROL)
	int of;
	#else
	int no_of;
	#endif
	#if CONFIG_VAL(SYS_MALLOC_LEN) > 0x100
	int big;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'a clean tree: U-Boot proper has OF_CONTROL, SPL need not' '
	test_expect_code 0 git undertaker --no-notes --all base >out &&
	test_must_be_empty out
'

test_expect_success 'the preset is there with no undertaker.macro' '
	test_must_fail git config undertaker.macro
'

test_expect_success 'dead and undead blocks through the SPL variants, and a misspelled symbol' '
	write_file drivers/spl.c <<-\EOF &&
	#ifdef CONFIG_SPL_BUILD
	#if CONFIG_IS_ENABLED(DM_GPIO) && !defined(CONFIG_SPL)
	int never;
	#endif
	#endif
	#ifndef CONFIG_SPL_BUILD
	#if CONFIG_IS_ENABLED(OF_CONTROL)
	int always;
	#endif
	#endif
	#ifdef CONFIG_DM_GPOI
	int typo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m defects && git tag defects &&
	test_expect_code 1 git undertaker --no-notes defects >out &&
	grep "^drivers/spl.c:2: dead block B1 (kconfig, global): #if CONFIG_IS_ENABLED(DM_GPIO) && !defined(CONFIG_SPL)$" out &&
	grep "^drivers/spl.c:7: undead block B3 (kconfig, global): #if CONFIG_IS_ENABLED(OF_CONTROL)$" out &&
	grep "^drivers/spl.c:11: dead block B4 (missing CONFIG_DM_GPOI, global): #ifdef CONFIG_DM_GPOI$" out &&
	! grep "CONFIG_SPL_BUILD" out
'

test_expect_success 'TPL: a variant the Kconfig lacks drops out instead of being missing' '
	write_file drivers/tpl.c <<-\EOF &&
	#if defined(CONFIG_SPL_BUILD) && defined(CONFIG_TPL_BUILD)
	#if CONFIG_IS_ENABLED(DM_GPIO)
	int tpl_gpio;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m tpl &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^drivers/tpl.c:2: dead block B1 (code, global): #if CONFIG_IS_ENABLED(DM_GPIO)$" out &&
	! grep undefined out
'

test_expect_success 'CONFIG_IS_ENABLED of an option with no variant in any Kconfig is missing' '
	write_file drivers/rtc.c <<-\EOF &&
	#if CONFIG_IS_ENABLED(PLATDATA)
	int typo;
	#endif
	#if CONFIG_IS_ENABLED(DM_GPIO) || CONFIG_IS_ENABLED(OF_CONTROL)
	int fine;
	#endif
	EOF
	git add . && test_tick && git commit -q -m macro-typo &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^drivers/rtc.c:1: dead block B0 (missing CONFIG_PLATDATA, global): #if CONFIG_IS_ENABLED(PLATDATA)$" out &&
	! grep "rtc.c:4:" out &&
	! grep "BUILD" out
'

test_expect_success 'the same through a file changed in place' '
	write_file drivers/rtc.c <<-\EOF &&
	#if CONFIG_IS_ENABLED(DM_GPIO) || CONFIG_IS_ENABLED(OF_CONTROL)
	int fine;
	#endif
	#if CONFIG_IS_ENABLED(PLATDATA)
	int typo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m macro-typo-moved &&
	git undertaker --no-notes --show=all HEAD >out;
	grep "^drivers/rtc.c:4: dead block B1 (missing CONFIG_PLATDATA, global): #if CONFIG_IS_ENABLED(PLATDATA) \[unchanged\]$" out &&
	! grep "BUILD" out
'

test_expect_success 'options of scripts/config_whitelist.txt (board headers) are not missing' '
	write_file scripts/config_whitelist.txt <<-\EOF &&
	CONFIG_SYS_NS16550_MEM32
	EOF
	write_file drivers/serial.c <<-\EOF &&
	#ifdef CONFIG_SYS_NS16550_MEM32
	int mem32;
	#endif
	#ifdef CONFIG_SYS_NS16550_MEM64
	int mem64;
	#endif
	EOF
	git add . && test_tick && git commit -q -m whitelist &&
	# --all: a model set is keyed by Kconfig and Makefile blobs, not this list.
	test_expect_code 1 git undertaker --no-notes --all HEAD -- drivers/serial.c >out &&
	! grep "serial.c:1:" out &&
	grep "^drivers/serial.c:4: dead block B1 (missing CONFIG_SYS_NS16550_MEM64, global): #ifdef CONFIG_SYS_NS16550_MEM64$" out
'

test_expect_success 'CONFIG_ names that a header of the tree defines are not missing' '
	write_file arch/m68k/include/asm/cache.h <<-\EOF &&
	#ifdef CONFIG_M5441x
	#define CONFIG_CF_V4E
	#endif
	#define CONFIG_CACHE_FN(x) (x)
	EOF
	write_file drivers/cache.c <<-\EOF &&
	#ifdef CONFIG_CF_V4E
	int v4e;
	#endif
	#ifdef CONFIG_CACHE_FN
	int fn;
	#endif
	EOF
	git add . && test_tick && git commit -q -m header-defines &&
	test_expect_code 1 git undertaker --no-notes --all HEAD -- drivers/cache.c >out &&
	! grep "cache.c:1:" out &&
	grep "^drivers/cache.c:4: dead block B1 (missing CONFIG_CACHE_FN, global): #ifdef CONFIG_CACHE_FN$" out
'

test_expect_success 'CONFIG_ names that a build script writes into a generated header are not missing' '
	write_file scripts/Makefile.autoconf <<-\EOF &&
	define filechk_config_h
		(echo \#define CONFIG_BOARDDIR board/$(BOARD);\
		 echo \#include <configs/$(CONFIG_SYS_CONFIG_NAME).h>;)
	endef
	EOF
	write_file common/board.c <<-\EOF &&
	#ifdef CONFIG_BOARDDIR
	int dir;
	#endif
	#ifdef CONFIG_BOARDDIRS
	int typo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m generated &&
	test_expect_code 1 git undertaker --no-notes --all HEAD -- common/board.c >out &&
	! grep "board.c:1:" out &&
	grep "^common/board.c:4: dead block B1 (missing CONFIG_BOARDDIRS, global): #ifdef CONFIG_BOARDDIRS$" out
'

test_expect_success 'host tools (USE_HOSTCC) test CONFIG_TOOLS_x' '
	write_file tools/Kconfig <<-\EOF &&
	config TOOLS_FIT_SIGNATURE
		def_bool y
	EOF
	write_uboot_kconfig <<-\EOF &&
	config FIT_SIGNATURE
		bool "FIT signature"
	source "tools/Kconfig"
	EOF
	write_file boot/fit.c <<-\EOF &&
	#ifdef USE_HOSTCC
	#if !CONFIG_IS_ENABLED(FIT_SIGNATURE)
	int tools_without;
	#endif
	#if !CONFIG_IS_ENABLED(DM_GPIO)
	int tools_no_gpio;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m tools &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	! grep "fit.c:6:" out &&
	grep "^boot/fit.c:2: dead block B1 (kconfig, global): #if !CONFIG_IS_ENABLED(FIT_SIGNATURE)$" out
'

test_expect_success 'undertaker.presets=false: CONFIG_IS_ENABLED is an unknown macro again' '
	git config undertaker.presets false &&
	test_when_finished "git config --unset undertaker.presets" &&
	test_expect_code 1 git undertaker --no-notes defects >out &&
	! grep "spl.c:2: dead" out &&
	! grep "spl.c:7: undead" out
'

test_expect_success 'undertaker.macro replaces the preset of the same name' '
	git config undertaker.macro "CONFIG_IS_ENABLED(x)=CONFIG_x" &&
	test_when_finished "git config --unset undertaker.macro" &&
	test_expect_code 1 git undertaker --no-notes defects >out &&
	! grep "spl.c:2: dead" out
'

test_expect_success 'the top Makefile names built-in.o files, not directories: api/ is still compiled' '
	write_file Makefile <<-\EOF &&
	libs-$(CONFIG_API) += api/
	libs-y += drivers/
	libs-y := $(sort $(libs-y))
	libs-y := $(patsubst %/, %/built-in.o, $(libs-y))
	EOF
	write_file api/Makefile <<-\EOF &&
	obj-y += api.o
	EOF
	write_file api/api.c <<-\EOF &&
	#ifdef CONFIG_API
	int api;
	#endif
	EOF
	write_file Kconfig <<-\EOF &&
	mainmenu "U-Boot Configuration"
	config API
		bool "API"
	EOF
	git add . && test_tick && git commit -q -m api &&
	test_expect_code 1 git undertaker --no-notes --all HEAD -- api >out &&
	! grep "kbuild never compiles" out &&
	grep "^api/api.c:1: undead block B0 (kbuild, global): #ifdef CONFIG_API$" out
'

test_expect_success 'git vampyr with no flags: CONFIG_IS_ENABLED preset, -D names live, the typo dead' '
	git vampyr --no-notes --commit=defects -o frag >out &&
	grep "^2 configurations compile 3 of 5 blocks (2 dead" out &&
	grep "^dead	drivers/spl.c:2 B1$" out &&
	grep "^dead	drivers/spl.c:11 B4$" out &&
	! grep "^dead	drivers/spl.c:1 B0" out
'

test_expect_success KCONF 'git vampyr --expand with the kconfig of the tree' '
	git vampyr --no-notes --commit=defects -o ex --expand \
		--kconfig="\"$KCONF\" --alldefconfig Kconfig" >out &&
	grep "^after expansion: 3 of 5 blocks compiled$" out &&
	grep "U-Boot Configuration" ex/config-1.expanded
'

test_expect_success KCONF 'git vampyr --expand: make alldefconfig finds what the top Makefile includes' '
	write_file include/host_arch.h <<-\EOF &&
	HOST_ARCH_X86_64=0x8664
	EOF
	printf "%s\n" "include include/host_arch.h" "libs-y += api/" \
		"alldefconfig:" "	\"\$(KCONF)\" --alldefconfig Kconfig" >Makefile &&
	git add . && test_tick && git commit -q -m host-arch &&
	git vampyr --no-notes -o ex2 --expand HEAD -- api/api.c >out &&
	grep "^after expansion: 1 of 1 blocks compiled$" out
'

test_expect_success '--arch on U-Boot: an arch/<dir>/Kconfig name is taken, any other refused with the list' '
	write_file arch/Kconfig <<-\EOF &&
	config SYS_ARCH
		string
	EOF
	write_file arch/arm/Kconfig <<-\EOF &&
	config ARM_THING
		bool
	EOF
	write_file arch/sandbox/Kconfig <<-\EOF &&
	config SANDBOX_THING
		bool
	EOF
	mkdir -p arch/nokconfig && write_file arch/nokconfig/Makefile </dev/null &&
	git add . && test_tick && git commit -q -m arches &&
	git undertaker --no-notes --dump-model=symbols --arch=arm HEAD >out &&
	grep "^CONFIG_API bool" out &&
	test_expect_code 129 git undertaker --no-notes --arch=armm HEAD 2>err &&
	grep "no architecture .armm. in this tree; did you mean .arm.?" err &&
	grep "^valid architectures: arm sandbox$" err &&
	test_expect_code 129 git undertaker --no-notes --dump-model --arch=foo HEAD 2>err &&
	grep "^valid architectures: arm sandbox$" err &&
	test_expect_code 129 git vampyr --no-notes --arch=foo HEAD 2>err &&
	grep "^valid architectures: arm sandbox$" err
'

# The project's macros are each commit's trees' own: a commit of U-Boot
# checked while HEAD is another kind of tree (here: one whose
# include/linux/kconfig.h is the kernel's) still reads CONFIG_IS_ENABLED
# with U-Boot's preset, in git undertaker (which took HEAD's kind before)
# as in git vampyr.
test_expect_success 'the macro presets are those of the commit checked, not of HEAD' '
	git checkout -q -f -b macros-of-commit base &&
	write_file drivers/typo.c <<-\EOF &&
	#if CONFIG_IS_ENABLED(NO_SUCH_OPTION)
	int never;
	#endif
	EOF
	git add drivers/typo.c && test_tick && git commit -q -m typo && git tag typo &&
	write_file include/linux/kconfig.h <<-\EOF &&
	#define IS_ENABLED(option) __or(IS_BUILTIN(option), IS_MODULE(option))
	EOF
	git add include/linux/kconfig.h && test_tick && git commit -q -m "another kind of tree" &&
	test_expect_code 1 git undertaker --no-notes typo^..typo >out &&
	grep "^drivers/typo.c:1: dead block B0 (missing CONFIG_NO_SUCH_OPTION" out &&
	test_expect_code 0 git undertaker --no-notes HEAD^..HEAD >out &&
	test_must_be_empty out &&
	git checkout -q -f - &&
	git branch -D -q macros-of-commit
'

test_done
