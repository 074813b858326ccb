#!/bin/sh
test_description='kbuild: the entry point (top Makefile, arch Makefile, top Kbuild) and reading commits'
. ./test-lib.sh

# Linux 6.x: the top Makefile includes arch/$(SRCARCH)/Makefile and exports
# its lists; the top Kbuild descends into them.
test_expect_success 'setup a 6.x-style tree' '
	mkdir new && (cd new &&
	write_file Makefile <<-\EOF &&
	ifeq ($(KBUILD_EXTMOD),)
	core-y		:=
	drivers-y	:=
	libs-y		:= lib/
	endif
	SRCARCH := $(ARCH)
	ifeq ($(ARCH),i386)
	SRCARCH := x86
	endif
	include $(srctree)/arch/$(SRCARCH)/Makefile
	export ARCH_CORE	:= $(core-y)
	export ARCH_LIB		:= $(filter %/, $(libs-y))
	export ARCH_DRIVERS	:= $(drivers-y) $(drivers-m)
	all:
		@echo never read
	EOF
	write_file Kbuild <<-\EOF &&
	obj-y += init/
	obj-y += arch/$(SRCARCH)/
	obj-y += $(ARCH_CORE)
	obj-y += $(ARCH_LIB)
	obj-$(CONFIG_NET) += net/
	obj-y += $(ARCH_DRIVERS)
	EOF
	write_file arch/x86/Makefile <<-\EOF &&
	ifeq ($(CONFIG_X86_32),y)
	        BITS := 32
	else
	        BITS := 64
	endif
	export BITS
	libs-y += arch/x86/lib/
	drivers-$(CONFIG_PCI) += arch/x86/pci/
	core-$(CONFIG_XEN) += arch/x86/xen-core/
	EOF
	echo "obj-y += kernel/" | write_file arch/x86/Kbuild &&
	echo "obj-y += head_\$(BITS).o setup.o" | write_file arch/x86/kernel/Makefile &&
	echo "lib-y += memcpy_\$(BITS).o" | write_file arch/x86/lib/Makefile &&
	echo "obj-y += pci.o" | write_file arch/x86/pci/Makefile &&
	echo "obj-y += xen.o" | write_file arch/x86/xen-core/Makefile &&
	echo "obj-y += main.o" | write_file init/Makefile &&
	echo "lib-y += string.o" | write_file lib/Makefile &&
	echo "obj-y += socket.o" | write_file net/Makefile &&
	echo "obj-y += arm.o" | write_file arch/arm/kernel/Makefile &&
	touch arch/x86/kernel/head_32.S arch/x86/kernel/head_64.S arch/x86/kernel/setup.c \
		arch/x86/lib/memcpy_32.S arch/x86/lib/memcpy_64.S arch/x86/pci/pci.c \
		arch/x86/xen-core/xen.c init/main.c lib/string.c net/socket.c \
		arch/arm/kernel/arm.c)
'

test_expect_success 'the x86 map of a 6.x-style tree' '
	test-kbuild --arch=x86 new >out &&
	cat >expect <<-\EOF &&
	arch/arm/kernel/arm.c	false
	arch/x86/kernel/head_32.S	CONFIG_X86_32=y
	arch/x86/kernel/head_64.S	!CONFIG_X86_32=y
	arch/x86/kernel/setup.c	true
	arch/x86/lib/memcpy_32.S	CONFIG_X86_32=y
	arch/x86/lib/memcpy_64.S	!CONFIG_X86_32=y
	arch/x86/pci/pci.c	CONFIG_PCI
	arch/x86/xen-core/xen.c	CONFIG_XEN=y
	init/main.c	true
	lib/string.c	true
	net/socket.c	CONFIG_NET=y
	EOF
	test_cmp expect out
'

test_expect_success 'without an architecture, arch/$(SRCARCH)/ is a free variable' '
	test-kbuild new >out &&
	grep "^arch/x86/kernel/setup.c	\[arch/\*/\]$" out &&
	grep "^arch/arm/kernel/arm.c	\[arch/\*/\]$" out &&
	grep "^init/main.c	true$" out
'

# Before the top Kbuild listed directories, the top Makefile did (core-y, drivers-y...).
test_expect_success 'an older tree: lists in the top Makefile' '
	mkdir old && (cd old &&
	write_file Makefile <<-\EOF &&
	init-y		:= init/
	drivers-y	:= drivers/
	net-y		:= net/
	libs-y		:= lib/
	core-y		:= usr/
	core-y		+= kernel/ mm/
	core-$(CONFIG_BLOCK) += block/
	include arch/$(SRCARCH)/Makefile
	vmlinux-dirs	:= $(patsubst %/,%,$(filter %/, $(init-y) $(core-y) $(drivers-y) $(net-y) $(libs-y)))
	EOF
	echo "core-y += arch/x86/kernel/" | write_file arch/x86/Makefile &&
	echo "obj-y += setup.o" | write_file arch/x86/kernel/Makefile &&
	echo "obj-y += main.o" | write_file init/Makefile &&
	echo "obj-y += bio.o" | write_file block/Makefile &&
	echo "obj-\$(CONFIG_FOO) += foo.o" | write_file drivers/Makefile &&
	touch arch/x86/kernel/setup.c init/main.c block/bio.c drivers/foo.c) &&
	test-kbuild --arch=x86 old >out &&
	cat >expect <<-\EOF &&
	arch/x86/kernel/setup.c	true
	block/bio.c	CONFIG_BLOCK
	drivers/foo.c	CONFIG_FOO
	init/main.c	true
	EOF
	test_cmp expect out
'

# Linux 6.12: the whole top Makefile sits in the else branch of its own
# sub-make test, and tab-indented assignments follow conditionals.
test_expect_success 'a 6.12-style top Makefile (sub-make, tab-indented lines)' '
	mkdir sub && (cd sub &&
	write_file Makefile <<-\EOF &&
	MAKEFLAGS += -rR
	ifeq ($(filter --no-print-directory, $(MAKEFLAGS)),)
	need-sub-make := 1
	endif
	ifeq ($(need-sub-make),1)
	__sub-make:
		$(Q)$(MAKE) -C $(abs_objtree) -f $(abs_srctree)/Makefile $(MAKECMDGOALS)
	else
	ifeq ($(KBUILD_CLIPPY),1)
		RUSTC_OR_CLIPPY_QUIET := CLIPPY
	else
		RUSTC_OR_CLIPPY_QUIET := RUSTC
	endif
	core-y := arch/x86/core/
	include $(srctree)/arch/$(SRCARCH)/Makefile
	export ARCH_CORE := $(core-y)
	endif # need-sub-make
	EOF
	write_file arch/x86/Makefile <<-\EOF &&
	ifeq ($(CONFIG_X86_32),y)
		BITS := 32
	else
		BITS := 64
	endif
	export BITS
	EOF
	echo "obj-y += \$(ARCH_CORE)" >Kbuild &&
	echo "obj-y += c_\$(BITS).o" | write_file arch/x86/core/Makefile &&
	touch arch/x86/core/c_32.c arch/x86/core/c_64.c) &&
	test-kbuild --arch=x86 sub >out &&
	cat >expect <<-\EOF &&
	arch/x86/core/c_32.c	CONFIG_X86_32=y
	arch/x86/core/c_64.c	!CONFIG_X86_32=y
	EOF
	test_cmp expect out
'

test_expect_success 'reading commits from the object store, with the cache' '
	git init -q repo && (cd repo &&
	cp -R ../new/. . &&
	git add . && git commit -q -m one &&
	echo "obj-\$(CONFIG_SETUP) += setup.o" >>arch/x86/kernel/Makefile &&
	git commit -q -a -m two &&
	test-kbuild --arch=x86 --stats --rev=HEAD^ --rev=HEAD >../out 2>../err) &&
	grep "^arch/x86/kernel/setup.c	true$" out &&
	grep "^init/main.c	true$" out &&
	grep "^HEAD^: cached 0 " err &&
	tail -n 1 err >last &&
	# every directory but the changed one came from the cache
	grep " cached 8 " last &&
	(cd repo && test-kbuild --arch=x86 --rev=HEAD) >out2 &&
	test_cmp out out2 &&
	test-kbuild --arch=x86 new >out3 &&
	test_cmp out out3
'

test_expect_success 'a change in the arch Makefile drops the cache' '
	(cd repo &&
	echo "drivers-y += arch/x86/xen-core/" >>arch/x86/Makefile &&
	git commit -q -a -m three &&
	test-kbuild --arch=x86 --stats --rev=HEAD^ --rev=HEAD >../out 2>../err) &&
	tail -n 1 err >last &&
	grep " cached 0 " last &&
	grep "^arch/x86/xen-core/xen.c	true$" out
'

test_done
