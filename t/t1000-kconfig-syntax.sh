#!/bin/sh
test_description='kconfig: every construct of the language parses into the right symbols, types, locations and dependencies'
. ./test-lib.sh

test_expect_success 'a tree with every construct' '
	mkdir -p tree/sub &&
	cat >tree/Kconfig <<\EOT &&
mainmenu "Test $(ARCH)"

config MODULES
	bool "Modules"
	modules

config A
	bool "A prompt"
	default y

menuconfig B
	tristate "B" if A
	depends on A && !C
	select D if A
	imply E
	help
	  B help line 1

	    indented line
	  line 3
config C
	def_bool y
	---help---
	  old help
config AFTER_HELP
	int "num"
	range 1 10 if A
	range 0 100
	default 5

if A
menu "Menu"
	depends on B
	visible if C

config D
	bool "D"
	depends on X || Y = "foo" && !(Z != n)

comment "a comment"
	depends on D

endmenu
endif

choice NAMED
	prompt "pick"
	depends on A
	default CH_B
	optional

config CH_A
	bool "a"
config CH_B
	bool "b"
config CH_B_SUB
	bool "child"
	depends on CH_B
endchoice

choice
	tristate "tri"
config T1
	tristate "t1"
config T2
	prompt "t2"
endchoice

config E
	boolean
	option defconfig_list
	default "x" if A < 5
	depends on B if C

config A
	prompt "A again"
	depends on E
	transitional

config H
	hex
	default 0x10
	range 0x0 0xff

config S
	string "s"
	default "a \"q\" b"
	option allnoconfig_y

source sub/Kconfig
EOT
	cat >tree/sub/Kconfig <<\EOT
config SUB
	tristate "sub"
	default m
EOT
'

test_expect_success 'symbols with types and every definition location' '
	test-kconfig --arch=foo tree >actual &&
	cat >expect <<\EOT &&
CONFIG_MODULES bool Kconfig:3
CONFIG_A bool Kconfig:7 Kconfig:75
CONFIG_B tristate Kconfig:11
CONFIG_C bool Kconfig:21
CONFIG_AFTER_HELP int Kconfig:25
CONFIG_D bool Kconfig:36
CONFIG_CH_A bool Kconfig:52
CONFIG_CH_B bool Kconfig:54
CONFIG_CH_B_SUB bool Kconfig:56
CONFIG_T1 tristate Kconfig:63
CONFIG_T2 tristate Kconfig:65
CONFIG_E bool Kconfig:69
CONFIG_H hex Kconfig:80
CONFIG_S string Kconfig:85
CONFIG_SUB tristate sub/Kconfig:1
EOT
	test_cmp expect actual
'

test_expect_success 'dependencies, prompts, defaults, selects, choices in detail' '
	test-kconfig --arch=foo --details tree >actual 2>err &&
	test_must_be_empty err &&
	cat >expect <<\EOT &&
mainmenu "Test foo"
config MODULES bool Kconfig:3
	prompt "Modules"
config A bool Kconfig:7
	prompt "A prompt"
	default y
menuconfig B tristate Kconfig:11
	depends on A && !C
	prompt "B" if A
	select D if A
	imply E
	help "B help line 1\n\n  indented line\nline 3\n"
config C bool Kconfig:21
	default y
	help "old help\n"
config AFTER_HELP int Kconfig:25
	prompt "num"
	default 5
	range 1 10 if A
	range 0 100
config D bool Kconfig:36
	depends on A && B && (X || Y = "foo" && !(Z != n))
	prompt "D" if C
choice NAMED unknown Kconfig:46
	depends on A
	prompt "pick"
	default CH_B
config CH_A bool Kconfig:52
	in choice NAMED
	depends on A
	prompt "a"
config CH_B bool Kconfig:54
	in choice NAMED
	depends on A
	prompt "b"
config CH_B_SUB bool Kconfig:56
	depends on A && CH_B
	prompt "child"
choice <anonymous> tristate Kconfig:61
	prompt "tri"
config T1 tristate Kconfig:63
	in choice <anonymous>
	prompt "t1"
config T2 unknown Kconfig:65
	in choice <anonymous>
	prompt "t2"
config E bool Kconfig:69
	depends on !C || B
	default "x" if A < 5
config A unknown Kconfig:75
	depends on E
	prompt "A again"
config H hex Kconfig:80
	default 0x10
	range 0x0 0xff
config S string Kconfig:85
	prompt "s"
	default "a \"q\" b"
config SUB tristate sub/Kconfig:1
	prompt "sub"
	default m
choice NAMED bool optional members: CH_A CH_B
choice <anonymous> tristate members: T1 T2
symbol MODULES bool modules
symbol A bool transitional
symbol B tristate
symbol C bool
symbol AFTER_HELP int
symbol D bool
	selected by B if A
symbol CH_A bool choice_member
symbol CH_B bool choice_member
symbol CH_B_SUB bool
symbol T1 tristate choice_member
symbol T2 tristate choice_member
symbol E bool defconfig_list
	implied by B
symbol H hex
symbol S string allnoconfig_y
symbol SUB tristate
symbol X unknown undefined
symbol Y unknown undefined
symbol Z unknown undefined
modules MODULES
EOT
	test_cmp expect actual
'

test_expect_success 'help text ends at the first line indented less than its first line' '
	mkdir -p help &&
	printf "config A\n\tbool \"a\"\n\thelp\n\t  first\n\n\t    deeper\n\t  last\n\tdefault y\nconfig B\n\tbool\n\thelp\nconfig C\n\tbool\n\thelp\n   spaces\n\tstill\n  default y\n" >help/Kconfig &&
	test-kconfig --details help >actual &&
	grep -A4 "^config A" actual >a &&
	cat >expect <<\EOT &&
config A bool Kconfig:1
	prompt "a"
	default y
	help "first\n\n  deeper\nlast\n"
config B bool Kconfig:9
EOT
	test_cmp expect a &&
	grep -A3 "^config C" actual >c &&
	cat >expect <<\EOT &&
config C bool Kconfig:12
	default y
	help "spaces\n     still\n"
symbol A bool
EOT
	test_cmp expect c &&
	grep -A1 "^config B" actual >b &&
	printf "config B bool Kconfig:9\n\thelp \"\"\n" >expect &&
	test_cmp expect b
'

test_expect_success 'expressions: precedence, parentheses, comparisons, constants' '
	mkdir -p expr &&
	cat >expr/Kconfig <<\EOT &&
config P1
	bool
	depends on A || B && C = D
config P2
	bool
	depends on (A || B) && !C
config P3
	bool
	depends on !A = B && X != "y" && Y >= 10 && Z < 0x20 && W <= V && U > -1
config P4
	bool
	default m if A
	default y if "m" = m
	default n
EOT
	test-kconfig --details expr >actual &&
	cat >expect <<\EOT &&
config P1 bool Kconfig:1
	depends on A || B && C = D
config P2 bool Kconfig:4
	depends on (A || B) && !C
config P3 bool Kconfig:7
	depends on !(A = B) && X != y && Y >= 10 && Z < 0x20 && W <= V && U > -1
config P4 bool Kconfig:10
	default m if A
	default y if m = m
	default n
EOT
	sed -n 1,10p actual >head &&
	test_cmp expect head
'

test_expect_success 'older syntax: option modules, option env, ---help---, boolean, $ARCH in source' '
	mkdir -p old/arch/foo &&
	cat >old/Kconfig <<\EOT &&
mainmenu "Linux/$ARCH Kernel Configuration"
config SRCARCH
	string
	option env="SRCARCH"
config MODULES
	boolean "modules"
	option modules
	---help---
	  Old help.
source "arch/$SRCARCH/Kconfig"
source arch/foo/Kconfig.unquoted
EOT
	cat >old/arch/foo/Kconfig <<\EOT &&
config FOO
	tristate "foo"
	depends on MODULES
EOT
	printf "config UNQUOTED\n\tbool\n" >old/arch/foo/Kconfig.unquoted &&
	test-kconfig --arches old >arches &&
	echo foo >expect &&
	test_cmp expect arches &&
	test-kconfig --arch=foo --details old >actual &&
	grep "^modules MODULES" actual &&
	grep "^symbol SRCARCH string env env=SRCARCH" actual &&
	grep -A2 "^config SRCARCH" actual | grep "default \"foo\"" &&
	grep "^config FOO tristate arch/foo/Kconfig:1" actual &&
	grep "^config UNQUOTED bool arch/foo/Kconfig.unquoted:1" actual &&
	grep "help \"Old help.\\\\n\"" actual
'

test_expect_success 'newer syntax: modules, transitional, depends on A if B' '
	mkdir -p new &&
	cat >new/Kconfig <<\EOT &&
config MODULES
	bool "modules"
	modules
config OLD_NAME
	bool
	transitional
config N
	tristate "n"
	depends on USB if !GADGET
	depends on GADGET if !USB
EOT
	test-kconfig --details new >actual &&
	grep "^modules MODULES" actual &&
	grep "^symbol OLD_NAME bool transitional" actual &&
	grep "depends on (GADGET || USB) && (USB || GADGET)" actual
'

test_expect_success 'a symbol defined in several files keeps every location, first type wins' '
	mkdir -p multi/a &&
	cat >multi/Kconfig <<\EOT &&
config M
	bool "m"
source "a/Kconfig"
config M
	default y
EOT
	cat >multi/a/Kconfig <<\EOT &&
config M
	tristate
	select N
EOT
	test-kconfig multi >actual 2>err &&
	cat >expect <<\EOT &&
CONFIG_M bool Kconfig:1 a/Kconfig:1 Kconfig:4
EOT
	test_cmp expect actual &&
	grep "a/Kconfig:2: ignoring type redefinition of .M. from .bool. to .tristate." err
'

test_expect_success 'nested if, menu and choice blocks AND their dependencies in order' '
	mkdir -p nest &&
	cat >nest/Kconfig <<\EOT &&
if A
if B
menu "m"
	depends on C
if D
choice
	prompt "c"
	depends on E
config F
	bool "f"
	depends on G
endchoice
endif
endmenu
endif
config AFTER
	bool
endif
EOT
	test-kconfig --details nest >actual &&
	grep -A1 "^choice <anonymous> unknown Kconfig:6" actual >choice &&
	printf "choice <anonymous> unknown Kconfig:6\n\tdepends on A && B && C && D && E\n" >expect &&
	test_cmp expect choice &&
	grep -A2 "^config F" actual >f &&
	printf "config F bool Kconfig:9\n\tin choice <anonymous>\n\tdepends on A && B && C && D && E && G\n" >expect &&
	test_cmp expect f &&
	grep -A1 "^config AFTER" actual >after &&
	printf "config AFTER bool Kconfig:16\n\tdepends on A\n" >expect &&
	test_cmp expect after
'

test_done
