#!/bin/sh
test_description='git undertaker: U-Boot defconfigs that #include others, read as its cpp reads them'
. ./test-lib.sh

test_expect_success 'setup: a U-Boot tree whose defconfigs include a shared fragment' '
	write_file include/linux/kconfig.h <<-\EOF &&
	#define CONFIG_IS_ENABLED(option) config_enabled(CONFIG_VAL(option))
	EOF
	write_file Kconfig <<-\EOF &&
	mainmenu "U-Boot Configuration"
	config A
		bool "a"
	config B
		bool "b"
	config X
		bool "x"
		depends on A
	config Y
		bool "y"
		depends on A
	choice
		prompt "board"
	config BOARD1
		bool "board 1"
	config BOARD2
		bool "board 2"
	endchoice
	EOF
	write_file configs/common.config <<-\EOF &&
	CONFIG_X=y
	CONFIG_GONE=y
	CONFIG_BOARD1=y
	EOF
	write_file configs/b_defconfig <<-\EOF &&
	#include <configs/common.config>
	CONFIG_B=y
	EOF
	write_file configs/c_defconfig <<-\EOF &&
	CONFIG_A=y
	#include "common.config"
	EOF
	write_file configs/e_defconfig <<-\EOF &&
	#include <configs/c_defconfig>
	# CONFIG_X is not set
	CONFIG_BOARD2=y
	EOF
	git add . && test_tick && git commit -q -m base
'

test_expect_success 'an included line kconfig drops: at the #include line, naming the file and line' '
	test_expect_code 1 git undertaker --no-notes --all HEAD >out &&
	cat >expect <<-\EOF &&
	configs/b_defconfig:1: dropped (kconfig, global): configs/common.config:1: CONFIG_X=y (kconfig makes it n: CONFIG_A)
	configs/common.config:2: undefined (missing CONFIG_GONE, global): CONFIG_GONE=y
	EOF
	grep "^configs/" out >actual &&
	test_cmp expect actual
'

# c_defconfig sets A before the fragment: X is kept. e_defconfig overrides
# the fragment (X off, another board picked): overridden, not dropped.
test_expect_success 'lines another file sets again, or whose choice it picks again, are overridden' '
	! grep "configs/[ce]_defconfig" out
'

test_expect_success KCONF 'conf agrees on what it drops of the preprocessed defconfigs' '
	for d in b c e
	do
		cpp -nostdinc -P -I . -undef -x assembler-with-cpp configs/${d}_defconfig >flat.$d &&
		rm -rf conftree && mkdir conftree &&
		git archive HEAD | tar -x -C conftree &&
		cp flat.$d conftree/.config &&
		(cd conftree && srctree=. KCONFIG_CONFIG=.config "$KCONF" --olddefconfig Kconfig) >/dev/null 2>&1 &&
		grep "^CONFIG_X=" conftree/.config >conf.$d || : &&
		echo "$d $(cat conf.$d)"
	done >actual &&
	cat >expect <<-\EOF &&
	b 
	c CONFIG_X=y
	e 
	EOF
	test_cmp expect actual
'

test_expect_success 'a commit that changes only the fragment: every defconfig that includes it is checked again' '
	echo CONFIG_Y=y >>configs/common.config &&
	git add . && test_tick && git commit -q -m "fragment: Y" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) fragment: Y
	configs/b_defconfig:1: dropped (kconfig, global): configs/common.config:4: CONFIG_Y=y (kconfig makes it n: CONFIG_A)
	EOF
	test_cmp expect out
'

test_expect_success 'a Kconfig change to a symbol only the fragment sets reaches the defconfigs that include it' '
	sed -i "/^config X/,/^config Y/s/depends on A/depends on A \&\& B/" Kconfig &&
	git add Kconfig && test_tick && git commit -q -m "X needs B" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) X needs B
	configs/c_defconfig:2: dropped (kconfig, global): configs/common.config:1: CONFIG_X=y (kconfig makes it n: CONFIG_B)
	EOF
	test_cmp expect out
'

test_expect_success 'a missing include: an error naming the file and line, and the run goes on' '
	write_file configs/m_defconfig <<-\EOF &&
	CONFIG_NOPE=y
	#include <configs/nowhere.config>
	EOF
	git add . && test_tick && git commit -q -m "m" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out 2>err &&
	grep "error: configs/m_defconfig:2: cannot include <configs/nowhere.config>: no such file at this commit" err &&
	grep "^configs/m_defconfig:1: undefined (missing CONFIG_NOPE" out
'

test_expect_success 'outside U-Boot an #include line is a comment: such a defconfig is left alone' '
	rm include/linux/kconfig.h &&
	git add . && test_tick && git commit -q -m "not U-Boot" &&
	test_expect_code 1 git undertaker --no-notes --all HEAD >out 2>err &&
	! grep "_defconfig:.*dropped" out &&
	! grep "cannot include" err
'

test_done
