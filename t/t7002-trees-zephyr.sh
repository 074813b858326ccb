#!/bin/sh
test_description='git undertaker on a Zephyr-style tree: rsource, osource, gsource, $(ZEPHYR_BASE), $(dt_...) functions'
. ./test-lib.sh

test_expect_success 'setup: a Kconfig tree sourced through Kconfiglib extensions' '
	write_file Kconfig <<-\EOF &&
	mainmenu "Zephyr Kernel Configuration"
	source "Kconfig.zephyr"
	EOF
	write_file Kconfig.zephyr <<-\EOF &&
	source "$(ZEPHYR_BASE)/kernel/Kconfig"
	rsource "drivers/Kconfig"
	osource "$(KCONFIG_BINARY_DIR)/Kconfig.modules"
	osource "modules/missing/Kconfig"
	gsource "subsys/*/Kconfig"
	EOF
	write_file kernel/Kconfig <<-\EOF &&
	config MULTITHREADING
		def_bool y
	config SERIAL
		bool "serial drivers"
	EOF
	write_file drivers/Kconfig <<-\EOF &&
	rsource "serial/Kconfig"
	EOF
	write_file drivers/serial/Kconfig <<-\EOF &&
	DT_COMPAT_VND_UART := vnd,uart
	config DT_HAS_VND_UART_ENABLED
		def_bool $(dt_compat_enabled,$(DT_COMPAT_VND_UART))
	config UART_VND
		bool "vendor UART"
		default y
		depends on SERIAL && DT_HAS_VND_UART_ENABLED
	EOF
	write_file subsys/net/Kconfig <<-\EOF &&
	config NETWORKING
		bool "networking"
	EOF
	write_file drivers/serial/uart_vnd.c <<-\EOF &&
	#if IS_ENABLED(CONFIG_UART_VND)
	int uart;
	#endif
	#ifdef CONFIG_NETWORKING
	int net;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'every Kconfig file is read, none is an error' '
	git undertaker --dump-model=symbols base >symbols 2>err &&
	test_must_be_empty err &&
	grep "^CONFIG_MULTITHREADING bool kernel/Kconfig:1" symbols &&
	grep "^CONFIG_UART_VND bool drivers/serial/Kconfig:4" symbols &&
	grep "^CONFIG_NETWORKING bool subsys/net/Kconfig:1" symbols
'

test_expect_success 'a clean tree: the devicetree function is a free variable' '
	test_expect_code 0 git undertaker --no-notes --all base >out &&
	test_must_be_empty out
'

test_expect_success 'dead, undead and misspelled, with no flags' '
	write_file drivers/serial/uart_defects.c <<-\EOF &&
	#ifdef CONFIG_UART_VND
	#ifndef CONFIG_SERIAL
	int never;
	#endif
	#endif
	#if !defined(CONFIG_MULTITHREADING)
	int single;
	#else
	int multi;
	#endif
	#ifdef CONFIG_NETWORKNG
	int typo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m defects && git tag defects &&
	test_expect_code 1 git undertaker --no-notes defects >out &&
	grep "^drivers/serial/uart_defects.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_SERIAL$" out &&
	grep "^drivers/serial/uart_defects.c:6: dead block B2 (kconfig, global): #if !defined(CONFIG_MULTITHREADING)$" out &&
	grep "^drivers/serial/uart_defects.c:8: undead block B3 (kconfig, global): #else$" out &&
	grep "^drivers/serial/uart_defects.c:11: dead block B4 (missing CONFIG_NETWORKNG, global): #ifdef CONFIG_NETWORKNG$" out
'

test_expect_success 'undertaker.env gives a variable of a source path' '
	write_file Kconfig.zephyr <<-\EOF &&
	source "$(ZEPHYR_BASE)/kernel/Kconfig"
	rsource "drivers/Kconfig"
	source "$(MODULE_DIR)/Kconfig"
	gsource "subsys/*/Kconfig"
	EOF
	write_file ext/mod/Kconfig <<-\EOF &&
	config MOD_FEATURE
		def_bool y
	EOF
	write_file drivers/serial/mod.c <<-\EOF &&
	#ifdef CONFIG_MOD_FEATURE
	int mod;
	#endif
	EOF
	git add . && test_tick && git commit -q -m module &&
	git undertaker --no-notes HEAD >out 2>err;
	grep "MODULE_DIR" err &&
	git config undertaker.env MODULE_DIR=ext/mod &&
	test_expect_code 1 git undertaker --no-notes HEAD >out 2>err &&
	test_must_be_empty err &&
	grep "^drivers/serial/mod.c:1: undead block B0 (kconfig, global): #ifdef CONFIG_MOD_FEATURE$" out
'

test_expect_success 'git vampyr with no flags: rsource and $(ZEPHYR_BASE) read, the typo dead' '
	git vampyr --no-notes --commit=defects -o frag >out &&
	grep "^1 configuration compiles 2 of 5 blocks (3 dead" out &&
	grep "^dead	drivers/serial/uart_defects.c:11 B4$" out &&
	grep "^CONFIG_UART_VND=y$" frag/config-1.config
'

test_done
