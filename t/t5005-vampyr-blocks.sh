#!/bin/sh
test_description='git vampyr: what is a block to cover (include guards are not)'
. ./test-lib.sh

test_expect_success 'setup' '
	write_file Kconfig <<-\EOF &&
	mainmenu "blocks"
	config A
		bool "a"
	EOF
	write_file foo.h <<-\EOF &&
	/* SPDX-License-Identifier: GPL-2.0 */
	#ifndef _FOO_H_
	#define _FOO_H_
	#ifdef CONFIG_A
	int a;
	#endif
	#endif /* _FOO_H_ */
	EOF
	write_file bar.h <<-\EOF &&
	#if !defined(BAR_H)
	#define BAR_H 1
	int bar;
	#endif
	EOF
	write_file baz.c <<-\EOF &&
	#ifndef BAZ
	int x;
	#endif
	int y;
	EOF
	git add . &&
	test_tick &&
	git commit -q -m base
'

test_expect_success KCONF 'an include guard is no block; an #ifndef with code after it is one' '
	git vampyr --no-notes --expand --kconfig="\"$KCONF\" --alldefconfig Kconfig" -o out >actual &&
	grep "^1 configuration compiles 2 of 2 blocks" actual &&
	grep "foo.h:4 B1" actual &&
	grep "baz.c:1 B0" actual &&
	! grep "foo.h:2" actual &&
	! grep "bar.h" actual &&
	! grep "_FOO_H_" actual &&
	grep "^outside	baz.c:1 B0	also needs BAZ (not Kconfig)" actual
'

test_expect_success 'setup: a choice, and a symbol on by default' '
	mkdir choice &&
	(
		cd choice &&
		git init -q &&
		write_file Kconfig <<-\EOF &&
		mainmenu "choice"
		choice
			prompt "mode"
			default MODE_A
		config MODE_A
			bool "a"
		config MODE_B
			bool "b"
		config MODE_C
			bool "c"
		endchoice
		config D
			bool "d"
			default y
		config E
			bool "e"
		EOF
		write_file foo.c <<-\EOF &&
		#ifdef CONFIG_MODE_B
		int b;
		#endif
		#if !defined(CONFIG_D) && defined(CONFIG_E)
		int not_d;
		#endif
		EOF
		git add . &&
		test_tick &&
		git commit -q -m base
	)
'

test_expect_success KCONF 'a choice in a fragment is one line; "is not set" only where a default could turn it on' '
	(
		cd choice &&
		git vampyr --no-notes --expand --kconfig="\"$KCONF\" --alldefconfig Kconfig" -o out >actual &&
		grep "^after expansion: 2 of 2 blocks compiled" actual &&
		cat out/config-*.config >all &&
		test $(grep -c "MODE_" all) = 1 &&
		grep "^CONFIG_MODE_B=y\$" all &&
		grep "^# CONFIG_D is not set\$" all &&
		grep "^CONFIG_E=y\$" all &&
		! grep "^changed" actual
	)
'

# A kconfig command that turns E off whatever the fragment says, as a
# toolchain probe would: the fragment line CONFIG_E=y is not kept, and
# vampyr says so rather than leaving the fragment to say what is not true.
test_expect_success KCONF 'an --expand that changes a fragment says which line and why' '
	(
		cd choice &&
		TRASH_KC="$(cd .. && pwd)/kc-no-e.sh" &&
		write_file "$TRASH_KC" <<-\EOF &&
		"$KCONF" --alldefconfig Kconfig || exit
		sed -i "s/^CONFIG_E=y\$/# CONFIG_E is not set/" "$KCONFIG_CONFIG"
		EOF
		git vampyr --no-notes --expand --kconfig="sh \"$TRASH_KC\"" -o out2 >actual &&
		grep "^changed	config-[0-9]	CONFIG_E=y: E=n (wanted y)" actual &&
		test $(grep -c "^changed" actual) = 1 &&
		git vampyr --no-notes --expand --format=json --kconfig="sh \"$TRASH_KC\"" -o out2 >actual.json &&
		python3 -c "import json, sys
r = json.load(open(\"actual.json\"))
ch = [x for c in r[\"configs\"] for x in c[\"changed\"]]
assert len(ch) == 1 and ch[0].startswith(\"CONFIG_E=y: \"), ch"
	)
'

# Xen's ee53a871ed: a new driver without any #if, built by
# obj-$(CONFIG_HAS_IMX_UART), which only arm64 can set.
test_expect_success 'setup: a two-architecture tree, then a commit adding a driver without #if' '
	mkdir twoarch &&
	(
		cd twoarch &&
		git init -q &&
		write_file Kconfig <<-\EOF &&
		mainmenu "two arches"
		source "arch/$(SRCARCH)/Kconfig"
		config HAS_IMX_UART
			bool "imx uart"
			depends on ARM_64
		EOF
		write_file arch/x86/Kconfig <<-\EOF &&
		config X86
			def_bool y
		EOF
		write_file arch/arm64/Kconfig <<-\EOF &&
		config ARM_64
			def_bool y
		EOF
		write_file Kbuild <<-\EOF &&
		obj-y += drivers/
		EOF
		write_file drivers/Makefile <<-\EOF &&
		obj-$(CONFIG_HAS_IMX_UART) += imx-uart.o
		EOF
		write_file drivers/core.c <<-\EOF &&
		int core;
		EOF
		git add . &&
		test_tick &&
		git commit -q -m base &&
		write_file drivers/imx-uart.c <<-\EOF &&
		int imx_uart_init(void) { return 0; }
		EOF
		git add . &&
		test_tick &&
		git commit -q -m "add imx-uart"
	)
'

test_expect_success 'a new file without #if is covered: a configuration that compiles it' '
	(
		cd twoarch &&
		git vampyr --no-notes --arch=arm64 -o out >actual &&
		grep "^1 configuration compiles 1 of 1 blocks" actual &&
		grep "drivers/imx-uart.c:0 B00" actual &&
		grep "^CONFIG_HAS_IMX_UART=y\$" out/config-1.config &&
		git vampyr --no-notes --arch=x86 --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"blocks_dead\"] == 1 and r[\"dead\"][0][\"line\"] == 0, r"
	)
'

test_expect_success 'without --arch: the architecture where the file builds, not the default' '
	(
		cd twoarch &&
		git vampyr --no-notes --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"arch\"] == \"arm64\" and r[\"blocks_covered\"] == 1, r" &&
		grep "^CONFIG_HAS_IMX_UART=y\$" out/config-1.config
	)
'

test_expect_success KCONF 'exit status of --build: 1 for a block nothing compiles, 0 for a clean build' '
	(
		cd twoarch &&
		test_expect_code 1 git vampyr --no-notes --arch=x86 --build=true \
			--kconfig="\"$KCONF\" --alldefconfig Kconfig" -o out >actual &&
		grep "^dead	drivers/imx-uart.c:0 B00" actual &&
		git vampyr --no-notes --arch=arm64 --build=true \
			--kconfig="\"$KCONF\" --alldefconfig Kconfig" -o out >actual &&
		grep "^the commit adds 0 diagnostics" actual &&
		# Without --build, the configurations are the answer: exit 0.
		git vampyr --no-notes --arch=x86 -o out >actual
	)
'

test_expect_success KCONF '--build builds for each configuration only the changed files it compiles' '
	(
		cd twoarch &&
		git checkout -q -b targets &&
		echo "obj-y += core.o" >>drivers/Makefile &&
		write_file drivers/core.c <<-\EOF &&
		int core;
		#ifndef CONFIG_HAS_IMX_UART
		int no_uart;
		#endif
		EOF
		echo "int more;" >>drivers/imx-uart.c &&
		git commit -q -a -m "core: without the uart" &&
		git vampyr --no-notes --arch=arm64 --kconfig="\"$KCONF\" --alldefconfig Kconfig" \
			--build="echo \$VAMPYR_CONFIG \$VAMPYR_TARGETS >>\"$PWD/built\"" -o outt >actual &&
		grep "^2 configurations compile" actual &&
		sort -u built >built.u &&
		test $(wc -l <built.u) = 2 &&
		while read config targets
		do
			if grep "^CONFIG_HAS_IMX_UART=y" outt/$config.expanded
			then
				test "$targets" = "drivers/core.o drivers/imx-uart.o" || return 1
			else
				test "$targets" = "drivers/core.o" || return 1
			fi
		done <built.u &&
		git checkout -q -
	)
'

test_done
