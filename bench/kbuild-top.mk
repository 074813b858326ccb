# SPDX-License-Identifier: GPL-2.0
# The part of Linux's top Makefile that makes the lists its top Kbuild reads:
# core-y, drivers-y and libs-y after arch/$(SRCARCH)/Makefile, printed as
# environment assignments (the top Makefile exports them to every sub-make).
#
#   make -s -f kbuild-top.mk srctree=<linux> ARCH=x86 KCONFIG_AUTO=<auto.conf>

# the default goal, before the arch Makefile names its own targets
__top:

SRCARCH := $(ARCH)
objtree := .
include $(KCONFIG_AUTO)
include $(srctree)/scripts/Kbuild.include
core-y		:=
drivers-y	:=
libs-y		:= lib/
include $(srctree)/arch/$(SRCARCH)/Makefile

__top:
	@:
$(info ARCH_CORE='$(strip $(core-y))')
$(info ARCH_LIB='$(strip $(filter %/, $(libs-y)))')
$(info ARCH_DRIVERS='$(strip $(drivers-y) $(drivers-m))')
$(info BITS='$(BITS)')
$(info SRCARCH='$(SRCARCH)')
