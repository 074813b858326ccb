#!/bin/sh
test_description='U-Boot build phases in Kbuild: obj-$(CONFIG_$(PHASE_)FOO), $(SPL_TPL_), SPL-only files, vampyr claims files their configuration compiles'
. ./test-lib.sh

test_expect_success 'setup: a U-Boot-style tree with phase Makefiles' '
	write_file Kconfig <<-\EOF &&
	mainmenu "U-Boot Configuration"
	choice
		prompt "Architecture select"
	config ARCH_FOO
		bool "foo"
	config SANDBOX
		bool "sandbox"
	endchoice
	config SPL
		bool "SPL"
	config TPL
		bool "TPL"
		depends on SPL
	config FOO
		bool "foo support"
	config SPL_FOO
		bool "foo support in SPL"
		depends on SPL
	config BAR
		bool "bar"
	config SPL_BAR
		bool "bar in SPL"
		depends on SPL
	config TPL_BAR
		bool "bar in TPL"
		depends on TPL
	config SPL_LOADER
		bool "the SPL loader, SPL only"
		depends on SPL
	config DRV
		bool "a driver of the foo architecture"
		depends on ARCH_FOO
	config BAZ
		bool "baz"
	config DRV_FAST
		bool "fast mode"
		depends on DRV
	EOF
	write_file include/linux/kconfig.h <<-\EOF &&
	#define CONFIG_IS_ENABLED(option) config_enabled(CONFIG_VAL(option))
	EOF
	write_file scripts/Makefile.autoconf <<-\EOF &&
	u-boot.cfg: include/config.h FORCE
		$(call cmd,u_boot_cfg)

	spl/u-boot.cfg: include/config.h FORCE
		$(Q)mkdir -p $(dir $@)
		$(call cmd,u_boot_cfg,-DCONFIG_XPL_BUILD -DCONFIG_SPL_BUILD)

	tpl/u-boot.cfg: include/config.h FORCE
		$(Q)mkdir -p $(dir $@)
		$(call cmd,u_boot_cfg,-DCONFIG_XPL_BUILD -DCONFIG_TPL_BUILD)
	EOF
	write_file scripts/Kbuild.include <<-\EOF &&
	ifdef CONFIG_XPL_BUILD
	ifeq ($(CONFIG_TPL_BUILD),y)
	SPL_TPL_ := TPL_
	else
	SPL_TPL_ := SPL_
	endif
	else
	SPL_TPL_ :=
	endif
	EOF
	write_file scripts/Kbuild.uboot <<-\EOF &&
	ifeq ($(CONFIG_SPL_BUILD),y)
	PHASE_ := SPL_
	else
	ifeq ($(CONFIG_TPL_BUILD),y)
	PHASE_ := TPL_
	else
	PHASE_ :=
	endif
	endif
	EOF
	write_file scripts/Makefile.xpl <<-\EOF &&
	include $(srctree)/scripts/Kbuild.uboot
	KBUILD_CPPFLAGS += -DCONFIG_XPL_BUILD
	ifeq ($(CONFIG_SPL_BUILD),y)
	KBUILD_CPPFLAGS += -DCONFIG_SPL_BUILD
	endif
	libs-y += common/ drivers/
	libs-y := $(addprefix $(obj)/,$(libs-y))
	libs-y := $(patsubst %/, %/built-in.o, $(libs-y))
	EOF
	write_file Makefile <<-\EOF &&
	libs-y += common/ drivers/
	libs-y := $(sort $(libs-y))
	libs-y := $(patsubst %/, %/built-in.o, $(libs-y))
	EOF
	write_file drivers/Makefile <<-\EOF &&
	obj-$(CONFIG_$(PHASE_)FOO) += foo.o
	obj-$(CONFIG_$(SPL_TPL_)BAR) += bar.o
	obj-$(CONFIG_DRV) += drv.o
	obj-$(CONFIG_$(XPL_)BAZ) += baz.o
	EOF
	write_file common/Makefile <<-\EOF &&
	ifdef CONFIG_XPL_BUILD
	obj-$(CONFIG_SPL_LOADER) += spl_load.o
	else
	obj-y += board.o
	endif
	EOF
	write_file drivers/foo.c <<-\EOF &&
	int foo;
	EOF
	write_file drivers/baz.c <<-\EOF &&
	int baz;
	EOF
	write_file drivers/bar.c <<-\EOF &&
	int bar;
	EOF
	write_file common/board.c <<-\EOF &&
	int board;
	EOF
	write_file common/spl_load.c <<-\EOF &&
	#ifdef CONFIG_SPL_LOADER
	int loader;
	#endif
	#ifdef CONFIG_FOO
	int with_foo;
	#endif
	EOF
	write_file drivers/drv.c <<-\EOF &&
	#if CONFIG_IS_ENABLED(DRV_FAST)
	int fast;
	#else
	int slow;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'each phase with its own prefix: no unresolved term in a file condition' '
	git undertaker --dump-model=files base >files &&
	! grep "\[" files &&
	# Each phase'"'"'s part says which -D names its compiler sees.
	main="!defined(CONFIG_SPL_BUILD) && !defined(CONFIG_TPL_BUILD) && !defined(CONFIG_XPL_BUILD)" &&
	spl="defined(CONFIG_SPL_BUILD) && !defined(CONFIG_TPL_BUILD) && defined(CONFIG_XPL_BUILD)" &&
	tpl="!defined(CONFIG_SPL_BUILD) && defined(CONFIG_TPL_BUILD) && defined(CONFIG_XPL_BUILD)" &&
	grep -F "drivers/foo.c	$spl && CONFIG_SPL_FOO || $tpl && CONFIG_TPL_FOO || $main && CONFIG_FOO" files &&
	grep -F "drivers/bar.c	CONFIG_BAR && $main || $spl && CONFIG_SPL_BAR || $tpl && CONFIG_TPL_BAR" files &&
	grep -F "common/board.c	$main" files &&
	# $(XPL_), which this tree defines nowhere, is empty as make reads it.
	grep -F "drivers/baz.c	CONFIG_BAZ && $spl || CONFIG_BAZ && $tpl || CONFIG_BAZ && $main" files
'

test_expect_success 'the SPL-only file is compiled (in SPL), not kbuild-dead' '
	grep -F "common/spl_load.c	$spl && CONFIG_SPL_LOADER || $tpl && CONFIG_SPL_LOADER" files &&
	test_expect_code 1 git undertaker --no-notes --all base -- common >out &&
	! grep "never compiles" out &&
	! grep "spl_load.c:4:" out &&
	grep "^common/spl_load.c:1: undead block B0 (kbuild, global): #ifdef CONFIG_SPL_LOADER$" out
'

test_expect_success 'git vampyr: the SPL-only file is claimed, the driver with its architecture' '
	git vampyr --no-notes --commit=base -o frag -- common drivers/drv.c >out &&
	! grep "^dead" out &&
	grep "^1 configuration compiles\|^2 configurations compile" out &&
	grep -l "CONFIG_SPL_LOADER=y" frag/*.config &&
	for f in $(grep -l "CONFIG_DRV_FAST=y" frag/*.config); do
		grep "^CONFIG_ARCH_FOO=y$" $f || return 1
	done &&
	grep -l "CONFIG_DRV_FAST=y" frag/*.config &&
	! grep -l "CONFIG_SANDBOX=y" $(grep -l "CONFIG_DRV" frag/*.config)
'

test_expect_success 'a phase'"'"'s -D names hold in the files it compiles: #ifdef CONFIG_SPL_BUILD' '
	write_file common/Makefile <<-\EOF &&
	ifdef CONFIG_XPL_BUILD
	obj-$(CONFIG_SPL_LOADER) += spl_load.o
	else
	obj-y += board.o
	endif
	obj-$(CONFIG_SPL_BUILD) += spl_only.o
	EOF
	write_file common/spl_only.c <<-\EOF &&
	#ifdef CONFIG_SPL_BUILD
	int in_spl;
	#endif
	#ifndef CONFIG_SPL_BUILD
	int never;
	#endif
	#if defined(CONFIG_TPL_BUILD)
	int in_tpl;
	#else
	int not_tpl;
	#endif
	EOF
	write_file common/board.c <<-\EOF &&
	#ifdef CONFIG_XPL_BUILD
	int never;
	#endif
	EOF
	write_file drivers/bar.c <<-\EOF &&
	#ifdef CONFIG_SPL_BUILD
	int bar_spl;
	#elif defined(CONFIG_TPL_BUILD)
	int bar_tpl;
	#else
	int bar_proper;
	#endif
	EOF
	cp drivers/bar.c drivers/foo.c &&
	git add . && test_tick && git commit -q -m "SPL-only file" && git tag spl-only &&
	git undertaker --dump-model=files spl-only >files &&
	grep "^common/spl_only.c	defined(CONFIG_SPL_BUILD) && !defined(CONFIG_TPL_BUILD) && defined(CONFIG_XPL_BUILD)$" files &&
	grep "^common/board.c	!defined(CONFIG_SPL_BUILD) && !defined(CONFIG_TPL_BUILD) && !defined(CONFIG_XPL_BUILD)$" files &&
	test_expect_code 1 git undertaker --no-notes --all spl-only -- common drivers/foo.c drivers/bar.c >out &&
	# bar.c is compiled in all three phases; foo.c not in TPL, which has no TPL_FOO.
	cat >expect <<-EOF &&
	$(git log -1 --format="%h %s" spl-only)
	common/board.c:1: dead block B0 (kbuild, global): #ifdef CONFIG_XPL_BUILD
	common/spl_load.c:1: undead block B0 (kbuild, global): #ifdef CONFIG_SPL_LOADER
	common/spl_only.c:1: undead block B0 (kbuild, global): #ifdef CONFIG_SPL_BUILD
	common/spl_only.c:4: dead block B1 (kbuild, global): #ifndef CONFIG_SPL_BUILD
	common/spl_only.c:7: dead block B2 (kbuild, global): #if defined(CONFIG_TPL_BUILD)
	common/spl_only.c:9: undead block B3 (kbuild, global): #else
	drivers/foo.c:3: dead block B1 (kbuild, global): #elif defined(CONFIG_TPL_BUILD)
	EOF
	test_cmp expect out
'

test_expect_success 'a tree without scripts/Makefile.autoconf has one phase: $(PHASE_) stays unknown' '
	git rm -q scripts/Makefile.autoconf &&
	test_tick && git commit -q -m "no phases" &&
	git undertaker --dump-model=files HEAD >files &&
	grep "^drivers/foo.c	.*\[" files
'

test_done
