#!/bin/sh
test_description='U-Boot board directories: board/$(VENDOR)/$(BOARD)/ is built only for the board that CONFIG_SYS_VENDOR and CONFIG_SYS_BOARD name'
. ./test-lib.sh

# Three boards, as U-Boot writes them: a target choice, and SYS_BOARD and
# SYS_VENDOR without a prompt, one constant default per board under its
# `if TARGET_...`. Board z has no vendor: board/z/.
test_expect_success 'setup: a U-Boot-shaped tree with three boards' '
	write_file Kconfig <<-\EOF &&
	mainmenu "U-Boot Configuration"
	choice
		prompt "Target"
	config TARGET_X
		bool "board x"
	config TARGET_Y
		bool "board y"
	config TARGET_Z
		bool "board z"
	endchoice
	config ONLY_FOR_Y
		bool "a feature of board y"
		depends on TARGET_Y
	config SYS_VENDOR
		string
	config SYS_BOARD
		string
	source "board/v/x/Kconfig"
	source "board/v/y/Kconfig"
	source "board/z/Kconfig"
	EOF
	write_file board/v/x/Kconfig <<-\EOF &&
	if TARGET_X
	config SYS_BOARD
		default "x"
	config SYS_VENDOR
		default "v"
	endif
	EOF
	write_file board/v/y/Kconfig <<-\EOF &&
	if TARGET_Y
	config SYS_BOARD
		default "y"
	config SYS_VENDOR
		default "v"
	endif
	EOF
	write_file board/z/Kconfig <<-\EOF &&
	if TARGET_Z
	config SYS_BOARD
		default "z"
	endif
	EOF
	write_file include/linux/kconfig.h <<-\EOF &&
	#define CONFIG_IS_ENABLED(option) config_enabled(CONFIG_VAL(option))
	EOF
	write_file config.mk <<-\EOF &&
	BOARD := $(CONFIG_SYS_BOARD:"%"=%)
	ifneq ($(CONFIG_SYS_VENDOR),)
	VENDOR := $(CONFIG_SYS_VENDOR:"%"=%)
	endif
	ifdef VENDOR
	BOARDDIR = $(VENDOR)/$(BOARD)
	else
	BOARDDIR = $(BOARD)
	endif
	EOF
	write_file Makefile <<-\EOF &&
	include config.mk
	libs-y += common/
	libs-y += $(if $(wildcard $(srctree)/board/$(VENDOR)/common/Makefile),board/$(VENDOR)/common/)
	libs-y += $(if $(wildcard $(srctree)/board/$(BOARDDIR)/Makefile),board/$(BOARDDIR)/)
	EOF
	write_file common/Makefile <<-\EOF &&
	obj-y += main.o
	EOF
	write_file common/main.c <<-\EOF &&
	int main_;
	EOF
	for d in v/x v/y v/common z
	do
		write_file board/$d/Makefile <<-\EOF || return 1
		obj-y += board.o
		EOF
	done &&
	write_file board/v/x/board.c <<-\EOF &&
	int x;
	EOF
	write_file board/v/y/board.c <<-\EOF &&
	int y;
	EOF
	write_file board/v/common/board.c <<-\EOF &&
	int v_common;
	EOF
	write_file board/z/board.c <<-\EOF &&
	int z;
	EOF
	git add . && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'the Kbuild map: each board directory under its SYS_VENDOR and SYS_BOARD' '
	git undertaker --dump-model=files base >files &&
	grep "^board/v/x/board.c	CONFIG_SYS_BOARD=\"x\" && CONFIG_SYS_VENDOR=\"v\"\$" files &&
	grep "^board/v/y/board.c	CONFIG_SYS_BOARD=\"y\" && CONFIG_SYS_VENDOR=\"v\"\$" files &&
	grep "^board/v/common/board.c	CONFIG_SYS_VENDOR=\"v\"\$" files &&
	grep "^board/z/board.c	CONFIG_SYS_BOARD=\"z\" && CONFIG_SYS_VENDOR=\"\"\$" files
'

test_expect_success 'a block of another board in a board file is dead, one of its own is not' '
	write_file board/v/x/board.c <<-\EOF &&
	int x;
	#ifdef CONFIG_ONLY_FOR_Y
	int x_dead;
	#endif
	EOF
	write_file board/v/y/board.c <<-\EOF &&
	int y;
	#ifdef CONFIG_ONLY_FOR_Y
	int y_live;
	#endif
	EOF
	write_file board/v/common/board.c <<-\EOF &&
	int v_common;
	#ifdef CONFIG_TARGET_Z
	int v_dead;
	#endif
	#ifdef CONFIG_TARGET_X
	int v_live;
	#endif
	EOF
	write_file board/z/board.c <<-\EOF &&
	int z;
	#if defined(CONFIG_TARGET_X) || defined(CONFIG_TARGET_Y)
	int z_dead;
	#endif
	EOF
	git add . && test_tick && git commit -q -m blocks && git tag blocks &&
	test_expect_code 1 git undertaker --no-notes blocks >out &&
	grep "^board/v/x/board.c:2: " out &&
	grep "^board/v/common/board.c:2: " out &&
	grep "^board/z/board.c:2: " out &&
	grep "dead block" out >dead &&
	test_line_count = 3 dead &&
	! grep "board/v/y/board.c" out &&
	! grep "board/v/common/board.c:5" out
'

test_expect_success 'the dead block in board x is explained by the board directory' '
	test_expect_code 1 git undertaker --no-notes --explain blocks -- board/v/x/board.c >explain &&
	grep "board/v/x/ only by .board/\$SYS_VENDOR/\$SYS_BOARD/ when CONFIG_SYS_BOARD=\"x\" && CONFIG_SYS_VENDOR=\"v\"" explain &&
	grep "CONFIG_SYS_BOARD (Kconfig:16) has no prompt" explain
'

test_expect_success KCONF 'kconfig agrees: TARGET_X gives SYS_BOARD "x" and no ONLY_FOR_Y, TARGET_Z no vendor' '
	echo CONFIG_TARGET_X=y >frag &&
	KCONFIG_ALLCONFIG=frag "$KCONF" --alldefconfig Kconfig &&
	grep "^CONFIG_SYS_BOARD=\"x\"\$" .config &&
	grep "^CONFIG_SYS_VENDOR=\"v\"\$" .config &&
	! grep "^CONFIG_ONLY_FOR_Y=y" .config &&
	echo CONFIG_TARGET_Z=y >frag &&
	KCONFIG_ALLCONFIG=frag "$KCONF" --alldefconfig Kconfig &&
	grep "^CONFIG_SYS_BOARD=\"z\"\$" .config &&
	! grep "^CONFIG_SYS_VENDOR=" .config
'

test_expect_success 'vampyr configures the board whose file a commit touches' '
	write_file board/v/y/board.c <<-\EOF &&
	int y;
	#ifdef CONFIG_ONLY_FOR_Y
	int y_live;
	int y_more;
	#endif
	EOF
	git add . && test_tick && git commit -q -m "board y" &&
	git vampyr --no-notes -o vout >actual &&
	grep "^CONFIG_TARGET_Y=y\$" vout/config-1.config &&
	grep "^CONFIG_ONLY_FOR_Y=y\$" vout/config-1.config
'

# TARGET_X is the choice's default: a fragment would not name it.
test_expect_success 'vampyr compiles a new board file only for its own board' '
	write_file board/z/extra.c <<-\EOF &&
	int extra;
	EOF
	echo "obj-y += extra.o" >>board/z/Makefile &&
	git add . && test_tick && git commit -q -m "board z extra" &&
	git vampyr --no-notes -o vout2 >actual &&
	grep "compiles 1 of 1 blocks" actual &&
	grep "^CONFIG_TARGET_Z=y\$" vout2/config-1.config
'

# U-Boot's meson, zynq, mediatek...: a prompt under the SoC, whose users type
# the board (CONFIG_SYS_BOARD="vim3" in a defconfig). A directory no default
# names is built only where that prompt is visible (here: always with
# TARGET_M_SOC, so its block is undead).
test_expect_success 'a typed board name: only where the prompt is visible' '
	cat >>Kconfig <<-\EOF &&
	config TARGET_M_SOC
		bool "an SoC whose boards are typed"
		depends on TARGET_Z
	if TARGET_M_SOC
	config SYS_BOARD
		string "Board name"
		default "m1"
	config SYS_VENDOR
		string "Vendor name"
		default "v"
	endif
	EOF
	write_file board/v/typed/Makefile <<-\EOF &&
	obj-y += board.o
	EOF
	write_file board/v/typed/board.c <<-\EOF &&
	int typed;
	#ifdef CONFIG_TARGET_M_SOC
	int typed_live;
	#endif
	#ifdef CONFIG_TARGET_X
	int typed_dead;
	#endif
	EOF
	git add . && test_tick && git commit -q -m typed &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^board/v/typed/board.c:5: dead block" out &&
	grep "^board/v/typed/board.c:2: undead block" out &&
	grep "dead block" out >dead &&
	test_line_count = 2 dead &&
	test_expect_code 1 git undertaker --no-notes --all HEAD >all &&
	grep "^board/v/x/board.c:2: dead block" all
'

test_expect_success KCONF 'kconfig keeps a typed board name under the SoC, and not elsewhere' '
	printf "CONFIG_TARGET_Z=y\nCONFIG_TARGET_M_SOC=y\nCONFIG_SYS_BOARD=\"typed\"\n" >frag &&
	KCONFIG_ALLCONFIG=frag "$KCONF" --alldefconfig Kconfig &&
	grep "^CONFIG_SYS_BOARD=\"typed\"\$" .config &&
	grep "^CONFIG_SYS_VENDOR=\"v\"\$" .config &&
	printf "CONFIG_TARGET_X=y\nCONFIG_SYS_BOARD=\"typed\"\n" >frag &&
	KCONFIG_ALLCONFIG=frag "$KCONF" --alldefconfig Kconfig &&
	grep "^CONFIG_SYS_BOARD=\"x\"\$" .config
'

# U-Boot's BuR zynq boards: SYS_VENDOR typed "BuR" at zynq's prompt, a text
# BuR's am33xx boards give as a default under their own targets; the option
# that depends on it is alive, and a defconfig that types it keeps it.
test_expect_success 'a typed text that a default gives elsewhere may hold' '
	cat >>Kconfig <<-\EOF &&
	config OTHER
		bool "another vendor for board y"
		depends on TARGET_Y
	if OTHER
	config SYS_VENDOR
		default "w"
	endif
	config ON_W
		bool "a feature of vendor w under the SoC"
		depends on TARGET_M_SOC && SYS_VENDOR = "w"
	EOF
	write_file configs/w_defconfig <<-\EOF &&
	CONFIG_TARGET_Z=y
	CONFIG_TARGET_M_SOC=y
	CONFIG_SYS_VENDOR="w"
	CONFIG_ON_W=y
	EOF
	git add . && test_tick && git commit -q -m "typed w" &&
	git undertaker --no-notes --all HEAD -- Kconfig configs/ >out &&
	test_must_be_empty out
'

test_expect_success KCONF 'kconfig keeps the typed text and the option on it' '
	KCONFIG_ALLCONFIG=configs/w_defconfig "$KCONF" --alldefconfig Kconfig &&
	grep "^CONFIG_SYS_VENDOR=\"w\"\$" .config &&
	grep "^CONFIG_ON_W=y\$" .config
'

test_done
