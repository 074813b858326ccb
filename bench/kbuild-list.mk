# SPDX-License-Identifier: GPL-2.0
# Asks kbuild itself which objects one directory selects, without compiling:
# read the directory's Kbuild/Makefile exactly as scripts/Makefile.build does
# (same preset lists, same includes, then scripts/Makefile.lib), and print
#   B <obj>   an object of built-in.a (only when the parent asked for it)
#   M <obj>   an object of a module
#   L <obj>   an object of lib.a
#   X <obj>   an extra-y object
#   D <dir> <need-builtin>   a subdirectory kbuild descends into
#
#   make -s -f kbuild-list.mk srctree=<linux> obj=<dir> [need-builtin=1] KCONFIG_AUTO=<auto.conf>
#
# scripts/Makefile.compiler is left out: its probes only set flags, and
# without it no compiler runs (calls of its functions expand to nothing).

src := $(obj)
PHONY := __list
__list:

obj-y :=
obj-m :=
lib-y :=
lib-m :=
always-y :=
always-m :=
targets :=
subdir-y :=
subdir-m :=
EXTRA_AFLAGS   :=
EXTRA_CFLAGS   :=
EXTRA_CPPFLAGS :=
EXTRA_LDFLAGS  :=
asflags-y  :=
ccflags-y  :=
rustflags-y :=
cppflags-y :=
ldflags-y  :=
subdir-asflags-y :=
subdir-ccflags-y :=

include $(KCONFIG_AUTO)
include $(srctree)/scripts/Kbuild.include
kbuild-dir := $(if $(filter /%,$(src)),$(src),$(srctree)/$(src))
include $(or $(wildcard $(kbuild-dir)/Kbuild),$(kbuild-dir)/Makefile)
include $(srctree)/scripts/Makefile.lib

subdir-builtin := $(sort $(filter %/built-in.a, $(real-obj-y)))

__list:
	@:
$(foreach o,$(if $(need-builtin),$(filter-out %/built-in.a,$(real-obj-y))),$(info B $(o)))
$(foreach o,$(filter %.o,$(real-obj-m)),$(info M $(o)))
$(foreach o,$(filter %.o,$(lib-y)),$(info L $(o)))
$(foreach o,$(filter %.o,$(extra-y)),$(info X $(o)))
$(foreach d,$(subdir-ym),$(info D $(d) $(if $(filter $(d)/built-in.a,$(subdir-builtin)),1,0)))
