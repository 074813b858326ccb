#!/bin/sh
test_description='coreboot build model: Makefile.mk and Makefile.inc per directory, stages, subdirs-y, ifeq'
. ./test-lib.sh

test_expect_success 'setup: a coreboot-style tree whose top Makefile walks subdirs-y' '
	write_file src/Kconfig <<-\EOF &&
	mainmenu "coreboot configuration"
	config SOC_INTEL_CANNONLAKE_BASE
		bool "cannonlake"
	config SOC_AMD_COMMON
		bool "amd"
		depends on !SOC_INTEL_CANNONLAKE_BASE
	config CHROMEOS
		bool "chromeos"
	config HAVE_SMI_HANDLER
		bool "smi"
	config OLD_BOARD
		bool "old board"
	source "src/mainboard/Kconfig"
	EOF
	write_file src/mainboard/Kconfig <<-\EOF &&
	config MAINBOARD_DIR
		string
		default "vendor/board"
	EOF
	write_file src/include/kconfig.h <<-\EOF &&
	#define CONFIG(option) config_enabled(CONFIG_##option)
	EOF
	write_file Makefile <<-\EOF &&
	top := .
	include $(top)/Makefile.mk
	add-class = $(eval $(1)-srcs:=) $(eval classes+=$(1))
	includemakefiles = $(if $(wildcard $(1)), $(eval -include $(1)))
	evaluate_subdirs = $(foreach dir,$(subdirs),$(eval $(call includemakefiles,$(dir)/Makefile.mk)))
	subdirs := $(top)
	$(eval $(call evaluate_subdirs))
	EOF
	write_file Makefile.mk <<-\EOF &&
	subdirs-y := src/lib
	subdirs-y += $(wildcard src/soc/*/*)
	subdirs-y += src/mainboard/$(MAINBOARDDIR)
	classes-y := ramstage romstage bootblock smm
	$(call add-special-class,all)
	EOF
	write_file src/lib/Makefile.mk <<-\EOF &&
	bootblock-y += always.c
	all-y += everywhere.c
	smm-$(CONFIG_HAVE_SMI_HANDLER) += smi.c
	ramstage-$(CONFIG_OAK_HAS_TPM2) += never.c
	EOF
	write_file src/lib/never.c <<-\EOF &&
	int never;
	EOF
	write_file src/lib/always.c <<-\EOF &&
	int always;
	EOF
	write_file src/lib/everywhere.c <<-\EOF &&
	int everywhere;
	EOF
	write_file src/lib/smi.c <<-\EOF &&
	#if !CONFIG(HAVE_SMI_HANDLER)
	int no_smi;
	#endif
	EOF
	write_file src/lib/unlisted.c <<-\EOF &&
	int unlisted;
	EOF
	write_file src/soc/intel/cannonlake/Makefile.mk <<-\EOF &&
	ifeq ($(CONFIG_SOC_INTEL_CANNONLAKE_BASE),y)
	subdirs-y += ../../../drivers/cnl
	romstage-y += lpc.c
	ramstage-$(CONFIG_CHROMEOS) += chromeos.c
	endif
	EOF
	write_file src/soc/intel/cannonlake/lpc.c <<-\EOF &&
	#if CONFIG(CHROMEOS)
	int chromeos;
	#endif
	EOF
	write_file src/soc/intel/cannonlake/chromeos.c <<-\EOF &&
	int chromeos;
	EOF
	write_file src/drivers/cnl/Makefile.mk <<-\EOF &&
	ramstage-y += cnl.c
	EOF
	write_file src/drivers/cnl/cnl.c <<-\EOF &&
	int cnl;
	EOF
	write_file src/soc/intel/common/Makefile.mk <<-\EOF &&
	ramstage-y += common.c
	EOF
	write_file src/soc/intel/common/common.c <<-\EOF &&
	int common;
	EOF
	write_file src/soc/amd/common/Makefile.mk <<-\EOF &&
	ifeq ($(CONFIG_SOC_AMD_COMMON),y)
	subdirs-y += ./*
	endif
	EOF
	write_file src/soc/amd/common/block/Makefile.mk <<-\EOF &&
	ramstage-y += lpc.c
	EOF
	write_file src/soc/amd/common/block/lpc.c <<-\EOF &&
	#if CONFIG(CHROMEOS)
	int chromeos;
	#endif
	EOF
	write_file src/soc/old/chip/Makefile.inc <<-\EOF &&
	ramstage-$(CONFIG_OLD_BOARD) += old.c
	EOF
	write_file src/soc/old/chip/old.c <<-\EOF &&
	int old;
	EOF
	write_file src/mainboard/vendor/board/Makefile.mk <<-\EOF &&
	romstage-y += variants/$(VARIANT_DIR)/gpio.c
	EOF
	write_file src/mainboard/vendor/board/variants/one/gpio.c <<-\EOF &&
	int gpio;
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success '--dump-model=files: each file its condition from the stage lists, subdirs-y (relative, $(wildcard), globs, unknown) and ifeq' '
	git undertaker --dump-model=files base >files 2>err &&
	test_must_be_empty err &&
	grep "^src/lib/always.c	true$" files &&
	grep "^src/lib/everywhere.c	true$" files &&
	grep "^src/lib/smi.c	CONFIG_HAVE_SMI_HANDLER=y$" files &&
	grep "^src/lib/unlisted.c	false$" files &&
	grep "^src/soc/intel/cannonlake/lpc.c	CONFIG_SOC_INTEL_CANNONLAKE_BASE=y$" files &&
	grep "^src/soc/intel/cannonlake/chromeos.c	CONFIG_CHROMEOS=y && CONFIG_SOC_INTEL_CANNONLAKE_BASE=y$" files &&
	grep "^src/drivers/cnl/cnl.c	CONFIG_SOC_INTEL_CANNONLAKE_BASE=y$" files &&
	grep "^src/soc/intel/common/common.c	true$" files &&
	grep "^src/soc/amd/common/block/lpc.c	CONFIG_SOC_AMD_COMMON=y$" files &&
	grep "^src/soc/old/chip/old.c	CONFIG_OLD_BOARD=y$" files &&
	grep "^src/mainboard/vendor/board/variants/one/gpio.c	\[src/mainboard/\*\] && \[src/mainboard/vendor/board/variants/\*/gpio.o\]$" files
'

test_expect_success 'a block that the file condition makes dead: kbuild cause' '
	test_expect_code 1 git undertaker --no-notes base >out &&
	grep "^src/lib/smi.c:1: dead block B0 (kbuild, global): #if !CONFIG(HAVE_SMI_HANDLER)$" out &&
	grep "^src/lib/never.c:1: dead block B00 (kbuild, global): (the whole file: the build never compiles it)$" out
'

test_expect_success 'git vampyr claims a file only for a configuration that builds it' '
	git vampyr --no-notes --commit=base -o frag >out &&
	# Each file of the (root) commit is a block too, line 0: never.c is dead.
	grep "^2 configurations compile 12 of 14 blocks (2 dead" out &&
	grep "^dead	src/lib/never.c:0 B00" out &&
	cfg_intel=$(grep -l "^CONFIG_SOC_INTEL_CANNONLAKE_BASE=y" frag/*.config) &&
	cfg_amd=$(grep -l "^CONFIG_SOC_AMD_COMMON=y" frag/*.config) &&
	test "$cfg_intel" != "$cfg_amd"
'

test_expect_success 'an .asl that Makefile.mk runs through cpp: a misspelt CONFIG(X) is reported' '
	branch=$(git symbolic-ref --short HEAD) &&
	git checkout -q -b asl base &&
	printf "%s\n" "\$(obj)/dsdt.aml: src/mainboard/vendor/board/dsdt.asl" \
		"	\$(CC_ramstage) -x assembler-with-cpp -E -P \$< -o \$(obj)/dsdt.asl" >>Makefile.mk &&
	write_file src/mainboard/vendor/board/dsdt.asl <<-\EOF &&
	DefinitionBlock("dsdt.aml", "DSDT", 2, "COREv4", "COREBOOT", 0x20090419)
	{
	#if CONFIG(CHROMEOS_NVSS)
		Name (NVSS, 1)
	#endif
	}
	EOF
	git add Makefile.mk src/mainboard/vendor/board/dsdt.asl &&
	test_tick && git commit -q -m asl &&
	test_expect_code 1 git undertaker --no-notes HEAD >out 2>err &&
	grep "^src/mainboard/vendor/board/dsdt.asl:3: dead block B0 (missing CONFIG_CHROMEOS_NVSS, global): #if CONFIG(CHROMEOS_NVSS)$" out &&
	git checkout -q "$branch"
'

test_expect_success KCONF 'git vampyr --expand: the kconfig the tree keeps in util/kconfig/ is written out and built' '
	write_file util/kconfig/conf.c <<-\EOF &&
	#include <stdlib.h>
	int main(void)
	{
		return system("\"$KCONF\" --alldefconfig src/Kconfig") ? 1 : 0;
	}
	EOF
	printf "%s\n" "build/util/kconfig/conf: util/kconfig/conf.c" \
		"	mkdir -p build/util/kconfig" "	\$(CC) -o \$@ \$<" \
		"alldefconfig: build/util/kconfig/conf" \
		"	KCONFIG_CONFIG=\"\$(KCONFIG_CONFIG)\" KCONFIG_ALLCONFIG=\"\$(KCONFIG_ALLCONFIG)\" build/util/kconfig/conf" \
		>util/kconfig/Makefile.mk &&
	write_file util/other/tool.c <<-\EOF &&
	int tool;
	EOF
	{ echo "include util/kconfig/Makefile.mk" && cat Makefile; } >Makefile.new &&
	mv Makefile.new Makefile &&
	git add . && test_tick && git commit -q -m kconfig &&
	git vampyr --no-notes -o ex --expand HEAD -- src/soc/intel/cannonlake/lpc.c src/soc/amd/common/block/lpc.c >out &&
	grep "^after expansion: 2 of 2 blocks compiled$" out &&
	grep "^CONFIG_SOC_INTEL_CANNONLAKE_BASE=y$" ex/*.expanded &&
	tree=$(ls -d .git/vampyr/trees/* | grep -v "\\.slots$") &&
	test -f "$tree/util/kconfig/conf.c" &&
	! test -e "$tree/util/other/tool.c"
'

test_done
