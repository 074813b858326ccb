#!/bin/sh
test_description='git undertaker on a Xen-style tree: the Kconfig tree starts in xen/, architectures by $(SRCARCH)'
. ./test-lib.sh

test_expect_success 'setup: xen/Kconfig with a mainmenu, no top-level Kconfig' '
	write_file xen/Kconfig <<-\EOF &&
	mainmenu "Xen/$(SRCARCH) Configuration"

	source "arch/$(SRCARCH)/Kconfig"
	source "common/Kconfig"
	EOF
	write_file xen/arch/x86/Kconfig <<-\EOF &&
	config X86
		def_bool y
	config HVM
		bool "HVM support"
	EOF
	write_file xen/arch/arm/Kconfig <<-\EOF &&
	config ARM_32
		def_bool y
		depends on "$(ARCH)" = "arm32"
	config ARM_64
		def_bool y
		depends on !ARM_32
	config ARM
		def_bool y
	config GICV3
		bool "GICv3"
	EOF
	write_file xen/common/Kconfig <<-\EOF &&
	config ALWAYS_ON
		def_bool y
	config SCHED
		bool "scheduler"
		depends on X86
	EOF
	write_file xen/common/clean.c <<-\EOF &&
	#ifdef CONFIG_SCHED
	int sched;
	#endif
	EOF
	write_file README <<-\EOF &&
	a hypervisor
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'the architectures come from xen/arch/*/Kconfig, named as $(ARCH)' '
	git undertaker --dump-model=symbols --arch=arm64 base >arm &&
	grep "^CONFIG_GICV3 bool xen/arch/arm/Kconfig:9" arm &&
	! grep CONFIG_HVM arm &&
	git undertaker --dump-model=symbols --arch=x86_64 base >x86 &&
	grep "^CONFIG_SCHED bool xen/common/Kconfig:3" x86
'

test_expect_success '--arch=<typo> is a usage error before any work: valid ones and the closest named, no note' '
	test_expect_code 129 git undertaker --arch=x68_64 base 2>err &&
	grep "no architecture .x68_64. in this tree; did you mean .x86_64.?" err &&
	grep "^valid architectures: .*arm64.*x86_64" err &&
	test_must_fail git rev-parse --verify -q refs/notes/undertaker &&
	test_expect_code 129 git undertaker --all --arch=x68_64 base 2>err &&
	grep "did you mean .x86_64.?" err &&
	test_expect_code 129 git undertaker --dump-model=files --arch=sparc base 2>err &&
	grep "no architecture .sparc. in this tree" err &&
	! grep "did you mean" err
'

test_expect_success 'a clean tree: exit 0, nothing printed' '
	test_expect_code 0 git undertaker --no-notes base >out &&
	test_must_be_empty out
'

test_expect_success 'dead, undead and misspelled, with no flags' '
	write_file xen/common/sched.c <<-\EOF &&
	#ifdef CONFIG_SCHED
	#ifndef CONFIG_X86
	int never;
	#endif
	#endif
	#ifdef CONFIG_ALWAYS_ON
	int always;
	#endif
	#ifdef CONFIG_SCHEDD
	int typo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m defects && git tag defects &&
	test_expect_code 1 git undertaker --no-notes defects >out &&
	grep "^xen/common/sched.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_X86$" out &&
	grep "^xen/common/sched.c:6: undead block B2 (kconfig, global): #ifdef CONFIG_ALWAYS_ON$" out &&
	grep "^xen/common/sched.c:9: dead block B3 (missing CONFIG_SCHEDD, global): #ifdef CONFIG_SCHEDD$" out
'

test_expect_success '--explain names Kconfig lines from the repository root' '
	git undertaker --no-notes --explain defects >out;
	grep "did you mean CONFIG_SCHED (xen/common/Kconfig:3)" out
'

test_expect_success 'a block inside an x86-only symbol' '
	write_file xen/common/hvm.c <<-\EOF &&
	#ifdef CONFIG_HVM
	#ifdef CONFIG_X86
	int x86;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m local &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^xen/common/hvm.c:2: undead block B1 (kconfig, global): #ifdef CONFIG_X86$" out
'

test_expect_success 'arm32 and arm64 are both architectures: neither ARM_32 nor ARM_64 is dead' '
	write_file xen/arch/arm/arm.c <<-\EOF &&
	#ifdef CONFIG_ARM_32
	int arm32;
	#endif
	#ifdef CONFIG_ARM_64
	int arm64;
	#endif
	EOF
	git add . && test_tick && git commit -q -m arm &&
	test_expect_code 0 git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'CONFIG_ macros of the force-included config.h headers are not missing' '
	write_file xen/include/xen/config.h <<-\EOF &&
	#include <asm/config.h>
	#define CONFIG_MULTIBOOT 1
	EOF
	write_file xen/arch/arm/include/asm/config.h <<-\EOF &&
	#  define CONFIG_SEPARATE_XENHEAP 1
	#define CONFIG_MAX_ORDER(x) (x)
	EOF
	write_file xen/common/heap.c <<-\EOF &&
	#ifdef CONFIG_SEPARATE_XENHEAP
	int separate;
	#endif
	#ifdef CONFIG_MULTIBOOT
	int mb;
	#endif
	#ifdef CONFIG_MAX_ORDER
	int typo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m headers &&
	# --all: a model set is keyed by Kconfig and Makefile blobs, not headers.
	test_expect_code 1 git undertaker --no-notes --all HEAD -- xen/common >out &&
	! grep "heap.c:1:" out &&
	! grep "heap.c:4:" out &&
	grep "^xen/common/heap.c:7: dead block B2 (missing CONFIG_MAX_ORDER, global): #ifdef CONFIG_MAX_ORDER$" out
'

test_expect_success 'xen/arch/x86/ files are decided by x86_64 alone' '
	write_file xen/arch/x86/hvm.c <<-\EOF &&
	#ifdef CONFIG_HVM
	int hvm;
	#endif
	#ifndef CONFIG_X86
	int never;
	#endif
	EOF
	git add . && test_tick && git commit -q -m x86-file &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	! grep "hvm.c:1:" out &&
	grep "^xen/arch/x86/hvm.c:4: dead block B1 (kconfig, local: x86_64): #ifndef CONFIG_X86$" out
'

test_expect_success 'a common file: a symbol of one architecture is alive there, not dead by code' '
	write_file xen/common/gic.c <<-\EOF &&
	#ifdef CONFIG_GICV3
	int gic;
	#endif
	#if defined(CONFIG_GICV3) && defined(CONFIG_HVM)
	int both;
	#endif
	EOF
	git add . && test_tick && git commit -q -m gic &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	! grep "gic.c:1:" out &&
	grep "^xen/common/gic.c:4: dead block B1 (kconfig, global): #if defined(CONFIG_GICV3) && defined(CONFIG_HVM)$" out
'

test_expect_success 'undertaker.srctree overrides the guess' '
	git init -q other &&
	(
		cd other &&
		write_file hv/Kconfig <<-\EOF &&
		config A
			bool "a"
		config B
			def_bool y
		EOF
		write_file hv/tools/Kconfig <<-\EOF &&
		mainmenu "not this"
		EOF
		write_file tools/Kconfig <<-\EOF &&
		mainmenu "nor this"
		EOF
		write_file hv/a.c <<-\EOF &&
		#ifdef CONFIG_B
		int b;
		#endif
		EOF
		git add . && test_tick && git commit -q -m other &&
		git config undertaker.srctree hv/ &&
		test_expect_code 1 git undertaker --no-notes >out &&
		grep "^hv/a.c:1: undead block B0 (kconfig, global): #ifdef CONFIG_B$" out
	)
'

test_expect_success 'no Kconfig tree at all (Zephyr the messaging system): one warning, no defects' '
	git init -q nokconfig &&
	(
		cd nokconfig &&
		write_file zhm/zhm.c <<-\EOF &&
		#ifdef CONFIG_FOO
		int foo;
		#endif
		EOF
		git add . && test_tick && git commit -q -m none &&
		test_expect_code 0 git undertaker --no-notes --all -j2 >out 2>err &&
		test_must_be_empty out &&
		test_line_count = 1 err &&
		grep "warning: no Kconfig tree found" err
	)
'

test_expect_success 'git vampyr with no flags: the Kconfig tree in xen/, the host architecture' '
	git vampyr --no-notes --commit=defects -o frag >out &&
	grep "^1 configuration compiles 2 of 4 blocks (2 dead" out &&
	grep "^dead	xen/common/sched.c:2 B1$" out &&
	grep "^dead	xen/common/sched.c:9 B3$" out &&
	grep "^CONFIG_SCHED=y$" frag/config-1.config
'

test_expect_success 'git vampyr --arch: arm32 and arm64 by $(ARCH), each covering its own block' '
	arm=$(git log --format=%H --grep="^arm$") &&
	git vampyr --no-notes --arch=arm64 --commit=$arm -o a64 >out &&
	grep "^dead	xen/arch/arm/arm.c:1 B0$" out &&
	grep "^1 configuration compiles 1 of 2 blocks (1 dead" out &&
	git vampyr --no-notes --arch=arm32 --commit=$arm -o a32 >out &&
	grep "^dead	xen/arch/arm/arm.c:4 B1$" out &&
	test_expect_code 129 git vampyr --no-notes --arch=arm65 --commit=$arm 2>err &&
	grep "did you mean .arm64.?" err
'

test_expect_success KCONF 'git vampyr --expand runs the kconfig in xen/ with ARCH and SRCARCH' '
	arm=$(git log --format=%H --grep="^arm$") &&
	git vampyr --no-notes --arch=arm64 --commit=$arm -o ex --expand \
		--kconfig="\"$KCONF\" --alldefconfig Kconfig" >out &&
	grep "^after expansion: 1 of 2 blocks compiled$" out &&
	grep "^# Xen/arm Configuration$" ex/config-1.expanded &&
	grep "^CONFIG_ARM_64=y$" ex/config-1.expanded &&
	grep "CONFIG_GICV3 is not set" ex/config-1.expanded
'

test_expect_success 'git vampyr on a tree with no Kconfig tree: fatal, named' '
	test_expect_code 128 git -C nokconfig vampyr --no-notes 2>err &&
	grep "no Kconfig tree at" err
'

test_expect_success 'Kbuild from xen/Makefile: ALL_OBJS-y, arch/$(SRCARCH)/, arch.mk'"'"'s $(ARCH), obj-bin-y, foo.init.o' '
	git init -q kb &&
	git archive base xen | tar -x -C kb &&
	(
		cd kb &&
		write_file xen/Makefile <<-\EOF &&
		ARCH := $(XEN_TARGET_ARCH)
		SRCARCH := $(shell echo $(ARCH) | sed -e "s/x86.*/x86/" -e "s/arm\(32\|64\)/arm/g")
		export ARCH SRCARCH
		ALL_OBJS-y := common/built_in.o
		ALL_OBJS-y += arch/$(SRCARCH)/built_in.o
		ALL_LIBS-y := lib/lib.a
		include $(srctree)/arch/$(SRCARCH)/arch.mk
		EOF
		write_file xen/arch/arm/arch.mk <<-\EOF &&
		ARCH_LIBS-y += arch/arm/$(ARCH)/lib/lib.a
		EOF
		write_file xen/arch/x86/arch.mk <<-\EOF &&
		CFLAGS += -mno-red-zone
		EOF
		write_file xen/arch/arm/Makefile <<-\EOF &&
		obj-y += setup.o
		EOF
		write_file xen/arch/arm/arm64/lib/Makefile <<-\EOF &&
		lib-y += memcpy.o
		EOF
		write_file xen/arch/arm/arm32/lib/Makefile <<-\EOF &&
		lib-y += memcpy.o
		EOF
		write_file xen/arch/x86/Makefile <<-\EOF &&
		obj-y += setup.o
		obj-bin-y += boot.init.o
		EOF
		write_file xen/common/Makefile <<-\EOF &&
		obj-y += clean.o
		obj-$(CONFIG_SCHED) += sched.o
		include $(srcdir)/Makefile.common
		EOF
		write_file xen/common/Makefile.common <<-\EOF &&
		obj-y += shared.o
		EOF
		write_file xen/lib/Makefile <<-\EOF &&
		lib-y += ctype.o
		EOF
		write_file xen/common/sched.c <<-\EOF &&
		#ifndef CONFIG_SCHED
		int never;
		#endif
		EOF
		for f in arch/arm/setup.c arch/arm/arm64/lib/memcpy.S arch/arm/arm32/lib/memcpy.S \
			 arch/x86/setup.c arch/x86/boot.c common/shared.c lib/ctype.c; do
			echo "int x;" >xen/$f || return 1
		done &&
		git add . && test_tick && git commit -q -m kbuild &&
		git undertaker --dump-model=files --arch=arm64 >arm64 &&
		! grep "\[" arm64 &&
		grep "^xen/arch/arm/arm64/lib/memcpy.S	true$" arm64 &&
		grep "^xen/arch/arm/arm32/lib/memcpy.S	false$" arm64 &&
		grep "^xen/arch/arm/setup.c	true$" arm64 &&
		grep "^xen/arch/x86/setup.c	false$" arm64 &&
		grep "^xen/common/sched.c	CONFIG_SCHED$" arm64 &&
		grep "^xen/common/shared.c	true$" arm64 &&
		grep "^xen/lib/ctype.c	true$" arm64 &&
		git undertaker --dump-model=files --arch=arm32 >arm32 &&
		grep "^xen/arch/arm/arm32/lib/memcpy.S	true$" arm32 &&
		grep "^xen/arch/arm/arm64/lib/memcpy.S	false$" arm32 &&
		git undertaker --dump-model=files --arch=x86_64 >x86 &&
		! grep "\[" x86 &&
		grep "^xen/arch/x86/setup.c	true$" x86 &&
		grep "^xen/arch/x86/boot.c	true$" x86 &&
		grep "^xen/arch/arm/setup.c	false$" x86 &&
		test_expect_code 1 git undertaker --no-notes --all -- xen/common >out &&
		grep "^xen/common/sched.c:1: dead block B0 (kbuild, global): #ifndef CONFIG_SCHED$" out
	)
'

test_done
