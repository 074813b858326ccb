#!/bin/sh
test_description='git undertaker on the sources a U-Boot-style build runs through cpp: .dts/.dtsi, .lds, .env, .asl'
. ./test-lib.sh

# A Makefile on standard input, with ">" where a recipe line starts with a tab.
write_makefile () {
	mkdir -p "$(dirname "$1")" &&
	sed "s/^>/$(printf "\t")/" >"$1"
}

test_expect_success 'setup: the Makefiles run .dts, .dtsi, .lds, .env and .asl through cpp' '
	write_file Kconfig <<-\EOF &&
	mainmenu "U-Boot Configuration"
	config TARGET_ACME
		bool "acme"
	config ENV_IS_IN_SPI_FLASH
		bool "env in SPI flash"
	config SYS_MALLOC_F
		bool "malloc"
	config SPL
		bool "SPL"
	EOF
	write_file include/linux/kconfig.h <<-\EOF &&
	#define CONFIG_IS_ENABLED(option) config_enabled(CONFIG_VAL(option))
	EOF
	write_makefile Makefile <<-\EOF &&
	LDSCRIPT := $(srctree)/arch/$(ARCH)/cpu/u-boot.lds
	quiet_cmd_cpp_lds = LDS     $@
	cmd_cpp_lds = $(CPP) $(cpp_flags) -D__ASSEMBLY__ -x assembler-with-cpp -P -o $@ $<
	u-boot.lds: $(LDSCRIPT) prepare FORCE
	>$(call if_changed_dep,cpp_lds)

	ENV_FILE := $(srctree)/board/$(BOARDDIR)/$(CONFIG_SYS_BOARD:"%"=%).env
	include/generated/env.txt: $(wildcard $(ENV_FILE))
	>cat $< > $@
	include/generated/env.in: include/generated/env.txt
	>$(CPP) -P -x assembler-with-cpp -undef $< -o $@
	EOF
	write_makefile scripts/Makefile.lib <<-\EOF &&
	u_boot_dtsi = $(wildcard $(dir $<)$(basename $(notdir $<))-u-boot.dtsi)
	quiet_cmd_dtc = DTC     $@
	cmd_dtc = $(HOSTCC) -E $(dtc_cpp_flags) -x assembler-with-cpp -o $(dtc-tmp) $< ; \
		$(DTC) -O dtb -o $@ $(dtc-tmp)
	$(obj)/%.dtb: $(src)/%.dts $(DTC) $(u_boot_dtsi) FORCE
	>$(call if_changed_dep,dtc)
	$(obj)/dsdt_generated.c: $(src)/dsdt.asl
	>$(CPP) -x assembler-with-cpp -D__ACPI__ -P $< -o $@.tmp && iasl $@.tmp
	EOF
	write_file scripts/Makefile.dts <<-\EOF &&
	dtb-y += $(patsubst %,%.dtb,$(subst ",,$(CONFIG_DEFAULT_DEVICE_TREE)))
	EOF
	write_file arch/arm/dts/Makefile <<-\EOF &&
	dtb-$(CONFIG_TARGET_ACME) += acme.dtb
	EOF
	write_file arch/arm/dts/acme.dts <<-\EOF &&
	/dts-v1/;
	#include "acme-common.dtsi"
	/ { model = "acme"; };
	EOF
	write_file arch/arm/dts/acme-common.dtsi <<-\EOF &&
	/ {
		#address-cells = <1>;
	#ifdef CONFIG_ENV_IS_IN_SPI_FLASH
		spi { status = "okay"; };
	#endif
	};
	EOF
	write_file arch/arm/cpu/u-boot.lds <<-\EOF &&
	SECTIONS
	{
	#if CONFIG_IS_ENABLED(SYS_MALLOC_F)
		. = ALIGN(8);
	#endif
	}
	EOF
	write_file board/acme/acme.env <<-\EOF &&
	bootcmd=run distro_bootcmd
	EOF
	write_file arch/x86/dts/dsdt.asl <<-\EOF &&
	DefinitionBlock ("dsdt.aml", "DSDT", 2, "U-BOOT", "U-BOOTBL", 0x00010000)
	{
	#if IS_ENABLED(CONFIG_SYS_MALLOC_F)
		Name (MF, 1)
	#endif
	}
	EOF
	write_file doc/notes.txt <<-\EOF &&
	#ifdef CONFIG_NOT_A_SOURCE
	#endif
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'a clean tree: nothing to report' '
	test_expect_code 0 git undertaker --no-notes --all base >out 2>err &&
	test_must_be_empty out
'

test_expect_success 'a misspelt symbol in a -u-boot.dtsi is reported, with a word that the build gives it no condition' '
	write_file arch/arm/dts/acme-u-boot.dtsi <<-\EOF &&
	/ {
	#ifdef CONFIG_ENV_IS_IN_SPI_FLASHH
		config { env = "spi"; };
	#endif
	};
	EOF
	git add . && test_tick && git commit -q -m dtsi-typo &&
	test_expect_code 1 git undertaker --no-notes HEAD >out 2>err &&
	grep "^arch/arm/dts/acme-u-boot.dtsi:2: dead block B0 (missing CONFIG_ENV_IS_IN_SPI_FLASHH, global): #ifdef CONFIG_ENV_IS_IN_SPI_FLASHH$" out &&
	grep "acme-u-boot.dtsi: the build gives it no condition (no list names it, no listed file includes it): .dtsi files without one are checked alone" err &&
	test $(grep -c "block B" out) = 1
'

test_expect_success 'a census says such files only with --verbose' '
	test_expect_code 1 git undertaker --all --no-notes HEAD >out 2>err &&
	grep "^arch/arm/dts/acme-u-boot.dtsi:2: dead block B0 (missing CONFIG_ENV_IS_IN_SPI_FLASHH" out &&
	! grep "the build gives it no condition" err &&
	test_expect_code 1 git undertaker --all --verbose --no-notes HEAD >out 2>err &&
	grep "acme-u-boot.dtsi: the build gives it no condition" err
'

test_expect_success 'a misspelt symbol in an .lds, an .env and an .asl is reported' '
	git reset -q --hard base &&
	write_file arch/arm/cpu/u-boot.lds <<-\EOF &&
	SECTIONS
	{
	#if CONFIG_IS_ENABLED(SYS_MALLOC_FF)
		. = ALIGN(8);
	#endif
	}
	EOF
	write_file board/acme/acme.env <<-\EOF &&
	bootcmd=run distro_bootcmd
	#ifdef CONFIG_ENV_IS_IN_SPI_FLASHH
	envloc=spi
	#endif
	EOF
	write_file arch/x86/dts/dsdt.asl <<-\EOF &&
	DefinitionBlock ("dsdt.aml", "DSDT", 2, "U-BOOT", "U-BOOTBL", 0x00010000)
	{
	#if IS_ENABLED(CONFIG_SYS_MALLOC_FFF)
		Name (MF, 1)
	#endif
	}
	EOF
	git add . && test_tick && git commit -q -m typos &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^arch/arm/cpu/u-boot.lds:3: dead block B0 (missing CONFIG_SYS_MALLOC_FF, global): #if CONFIG_IS_ENABLED(SYS_MALLOC_FF)$" out &&
	grep "^board/acme/acme.env:2: dead block B0 (missing CONFIG_ENV_IS_IN_SPI_FLASHH, global): #ifdef CONFIG_ENV_IS_IN_SPI_FLASHH$" out &&
	grep "^arch/x86/dts/dsdt.asl:3: dead block B0 (missing CONFIG_SYS_MALLOC_FFF, global): #if IS_ENABLED(CONFIG_SYS_MALLOC_FFF)$" out &&
	test $(grep -c "block B" out) = 3
'

test_expect_success 'a .dtsi that a dtb-$(CONFIG_X) board includes: dead under #ifndef CONFIG_X (kbuild)' '
	git reset -q --hard base &&
	write_file arch/arm/dts/acme-common.dtsi <<-\EOF &&
	/ {
		#address-cells = <1>;
	#ifndef CONFIG_TARGET_ACME
		never { };
	#endif
	#ifdef CONFIG_ENV_IS_IN_SPI_FLASH
		spi { status = "okay"; };
	#endif
	};
	EOF
	git add . && test_tick && git commit -q -m dtsi-dead &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^arch/arm/dts/acme-common.dtsi:3: dead block B0 (kbuild, global): #ifndef CONFIG_TARGET_ACME$" out &&
	test $(grep -c "block B" out) = 1
'

test_expect_success 'the same .dtsi included by an unlisted board too: no condition, nothing dead' '
	write_file arch/arm/dts/other.dts <<-\EOF &&
	#include "acme-common.dtsi"
	EOF
	git add . && test_tick && git commit -q -m unlisted-includer &&
	test_expect_code 0 git undertaker --no-notes --all HEAD -- arch/arm/dts/acme-common.dtsi >out &&
	test_must_be_empty out
'

test_expect_success 'what no Makefile runs through cpp is not read: a .txt, scripts/Makefile.dts' '
	git undertaker --no-notes --all base -- doc scripts >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err
'

test_expect_success 'learned from the tree: without the env rule, an .env is not a source' '
	git reset -q --hard base &&
	write_file Makefile <<-\EOF &&
	all:
	EOF
	write_file board/acme/acme.env <<-\EOF &&
	#ifdef CONFIG_ENV_IS_IN_SPI_FLASHH
	envloc=spi
	#endif
	EOF
	git add . && test_tick && git commit -q -m no-env-rule &&
	test_expect_code 0 git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'git vampyr covers the blocks of a .dtsi the commit touches' '
	git reset -q --hard base &&
	write_file arch/arm/dts/acme-common.dtsi <<-\EOF &&
	/ {
	#ifdef CONFIG_ENV_IS_IN_SPI_FLASH
		spi { status = "okay"; };
	#else
		nospi { };
	#endif
	};
	EOF
	git add . && test_tick && git commit -q -m vampyr-dtsi &&
	git vampyr --no-notes -o frag HEAD >out &&
	grep "^2 configurations compile 2 of 2 blocks" out
'

test_expect_success 'a census: a broken source the build gives no condition warns with --verbose, no error' '
	git reset -q --hard base &&
	write_file tools/notes.asl <<-\EOF &&
	/* a note that never ends
	EOF
	git add . && test_tick && git commit -q -m unbuilt-asl &&
	test_expect_code 0 git undertaker --no-notes --all HEAD >out 2>err &&
	! grep "error:" err &&
	test_expect_code 0 git undertaker --no-notes --all --verbose HEAD >out 2>err &&
	grep "warning: tools/notes.asl:1: unterminated comment (the build gives this file no condition)" err &&
	! grep "error:" err
'

test_expect_success 'a range: the same file gives a warning, not an error, and exit 0' '
	test_expect_code 0 git undertaker --no-notes HEAD >out 2>err &&
	grep "warning: tools/notes.asl:1: unterminated comment" err &&
	! grep "error:" err
'

test_done
