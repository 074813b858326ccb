#!/bin/sh
test_description='git undertaker on a coreboot-style tree: src/Kconfig from the root, CONFIG(X)'
. ./test-lib.sh

test_expect_success 'setup: src/Kconfig with a mainmenu, sources from the root; CONFIG() in kconfig.h' '
	write_file src/Kconfig <<-\EOF &&
	mainmenu "coreboot configuration"
	config USE_OPTION_TABLE
		bool "option table"
	config HAVE_ACPI_TABLES
		def_bool y
	source "src/mainboard/Kconfig"
	source "src/soc/*/Kconfig"
	EOF
	write_file src/mainboard/Kconfig <<-\EOF &&
	config BOARD_EMULATION
		bool "emulation"
	source "src/mainboard/*/Kconfig.name"
	EOF
	write_file src/mainboard/emulation/Kconfig.name <<-\EOF &&
	config BOARD_EMULATION_QEMU
		bool "QEMU"
	EOF
	write_file src/soc/intel/Kconfig <<-\EOF &&
	config SOC_INTEL_COMMON
		bool "intel"
		depends on !BOARD_EMULATION
	EOF
	write_file src/include/kconfig.h <<-\EOF &&
	#define CONFIG(option) config_enabled(CONFIG_##option)
	EOF
	write_file payloads/Kconfig <<-\EOF &&
	menu "Payload"
	config PAYLOAD_NONE
		bool "none"
	endmenu
	EOF
	write_file src/lib/clean.c <<-\EOF &&
	#if CONFIG(USE_OPTION_TABLE)
	int table;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'the tree is read from src/Kconfig, paths from the root; a glob skips files where it wants directories' '
	git undertaker --dump-model=symbols base >symbols 2>err &&
	test_must_be_empty err &&
	grep "^CONFIG_SOC_INTEL_COMMON bool src/soc/intel/Kconfig:1" symbols &&
	grep "^CONFIG_BOARD_EMULATION bool src/mainboard/Kconfig:1" symbols &&
	grep "^CONFIG_BOARD_EMULATION_QEMU bool src/mainboard/emulation/Kconfig.name:1" symbols
'

test_expect_success 'a clean tree: exit 0' '
	test_expect_code 0 git undertaker --no-notes --all base >out &&
	test_must_be_empty out
'

test_expect_success 'dead, undead and misspelled through CONFIG(X), with no flags' '
	write_file src/soc/intel/defects.c <<-\EOF &&
	#if CONFIG(SOC_INTEL_COMMON) && CONFIG(BOARD_EMULATION)
	int never;
	#endif
	#if CONFIG(HAVE_ACPI_TABLES)
	int acpi;
	#endif
	#if !CONFIG(HAVE_ACPI_TABLES)
	int no_acpi;
	#endif
	#ifdef CONFIG_USE_OPTON_TABLE
	int typo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m defects && git tag defects &&
	test_expect_code 1 git undertaker --no-notes defects >out &&
	grep "^src/soc/intel/defects.c:1: dead block B0 (kconfig, global): #if CONFIG(SOC_INTEL_COMMON) && CONFIG(BOARD_EMULATION)$" out &&
	grep "^src/soc/intel/defects.c:4: undead block B1 (kconfig, global): #if CONFIG(HAVE_ACPI_TABLES)$" out &&
	grep "^src/soc/intel/defects.c:7: dead block B2 (kconfig, global): #if !CONFIG(HAVE_ACPI_TABLES)$" out &&
	grep "^src/soc/intel/defects.c:10: dead block B3 (missing CONFIG_USE_OPTON_TABLE, global): #ifdef CONFIG_USE_OPTON_TABLE$" out
'

test_expect_success 'a misspelled CONFIG(X) is missing too' '
	write_file src/soc/intel/typo.c <<-\EOF &&
	#if CONFIG(USE_OPTON_TABLE)
	int typo;
	#endif
	#if CONFIG(USE_OPTION_TABLE)
	int fine;
	#endif
	EOF
	git add . && test_tick && git commit -q -m typo &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^src/soc/intel/typo.c:1: dead block B0 (missing CONFIG_USE_OPTON_TABLE, global): #if CONFIG(USE_OPTON_TABLE)$" out &&
	! grep "typo.c:4:" out
'

test_expect_success 'a source that matches no file is skipped, as coreboot globs every source' '
	write_file src/Kconfig <<-\EOF &&
	mainmenu "coreboot configuration"
	config USE_OPTION_TABLE
		bool "option table"
	config HAVE_ACPI_TABLES
		def_bool y
	source "src/mainboard/Kconfig"
	source "src/soc/*/Kconfig"
	source "site-local/Kconfig"
	EOF
	git add . && test_tick && git commit -q -m site-local &&
	git undertaker --dump-model=symbols HEAD >symbols 2>err &&
	test_must_be_empty err &&
	grep "^CONFIG_SOC_INTEL_COMMON bool" symbols
'

test_expect_success 'payloads/libpayload is a Kconfig tree of its own (CONFIG_LP_X): not checked against src/Kconfig' '
	write_file payloads/libpayload/Kconfig <<-\EOF &&
	mainmenu "Libpayload Configuration"
	config USB
		bool "USB"
	EOF
	write_file payloads/libpayload/drivers/usb.c <<-\EOF &&
	#if CONFIG(LP_USB)
	int usb;
	#endif
	EOF
	write_file src/lib/usb.c <<-\EOF &&
	#if CONFIG(LP_USB)
	int usb;
	#endif
	EOF
	git add . && test_tick && git commit -q -m libpayload &&
	test_expect_code 1 git undertaker --no-notes --all HEAD >out &&
	! grep "^payloads/libpayload/" out &&
	grep "^src/lib/usb.c:1: dead block B0 (missing CONFIG_LP_USB, global): #if CONFIG(LP_USB)$" out
'

test_expect_success 'git vampyr with no flags: src/Kconfig from the root, CONFIG(X)' '
	git vampyr --no-notes --commit=defects -o frag >out &&
	grep "^1 configuration compiles 1 of 4 blocks (3 dead" out &&
	grep "^	src/soc/intel/defects.c:4 B1$" out &&
	grep "^dead	src/soc/intel/defects.c:10 B3$" out
'

test_done
