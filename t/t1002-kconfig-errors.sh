#!/bin/sh
test_description='kconfig: malformed input is reported as path:line and the rest still parses'
. ./test-lib.sh

test_expect_success 'a tree with mistakes' '
	mkdir -p d &&
	cat >Kconfig <<\EOT &&
config GOOD1
	bool "good"
	depends on (A || B
	default y

config GOOD2
	bool "x" if
	dpends on FOO
	select
	range 1

config
	bool

source "d/Kconfig"
source "missing/Kconfig"

endmenu

menu "unclosed"
config IN_MENU
	bool
EOT
	cat >d/Kconfig <<\EOT &&
config IN_D
	tristate "d"
	@ depends on X
source "d/Kconfig2"
config AFTER_RECURSION
	bool
EOT
	cat >d/Kconfig2 <<\EOT
if FOO
source "d/Kconfig"
endif
config LAST
	bool
	default "unterminated
EOT
'

test_expect_success 'every error names its path:line; the run fails and counts them' '
	test_expect_code 1 test-kconfig . >actual 2>err &&
	cat >expect <<\EOT &&
test-kconfig: error: Kconfig:3: syntax error: expected '"')'"', found end of line
test-kconfig: error: Kconfig:7: syntax error: expected a symbol, found end of line
test-kconfig: error: Kconfig:8: unknown statement '"'dpends'"'
test-kconfig: error: Kconfig:9: syntax error: expected a symbol name, found end of line
test-kconfig: error: Kconfig:10: syntax error: expected a symbol, found end of line
test-kconfig: error: Kconfig:12: syntax error: expected a symbol name, found end of line
test-kconfig: warning: d/Kconfig:3: ignoring unsupported character '"'@'"'
test-kconfig: warning: d/Kconfig2:6: unterminated string
test-kconfig: error: d/Kconfig2:2: recursive source: d/Kconfig:4 -> d/Kconfig2:2 -> d/Kconfig
test-kconfig: error: Kconfig:16: can'"'"'t open file "missing/Kconfig"
test-kconfig: error: Kconfig:18: '"'endmenu'"' without '"'menu'"'
test-kconfig: error: Kconfig:20: '"'menu'"' without '"'endmenu'"' in the same file
10 errors
EOT
	test_cmp expect err
'

test_expect_success 'the rest of the tree is still there' '
	cat >expect <<\EOT &&
CONFIG_GOOD1 bool Kconfig:1
CONFIG_GOOD2 unknown Kconfig:6
CONFIG_IN_D tristate d/Kconfig:1
CONFIG_LAST bool d/Kconfig2:4
CONFIG_AFTER_RECURSION bool d/Kconfig:5
CONFIG_IN_MENU bool Kconfig:21
EOT
	test_cmp expect actual
'

test_expect_success 'a line with an error adds nothing; the good lines of the entry stay' '
	test-kconfig --details . >details 2>/dev/null;
	grep -A2 "^config GOOD1" details >g1 &&
	printf "config GOOD1 bool Kconfig:1\n\tprompt \"good\"\n\tdefault y\n" >expect &&
	test_cmp expect g1 &&
	grep -A1 "^config IN_D" details | grep "depends on X"
'

test_expect_success 'a file sourcing itself is an error, not a hang' '
	mkdir -p self &&
	printf "config S\n\tbool\nsource \"Kconfig\"\n" >self/Kconfig &&
	test_expect_code 1 test-kconfig self >actual 2>err &&
	grep "error: Kconfig:3: recursive source: Kconfig:3 -> Kconfig" err &&
	grep "^CONFIG_S bool Kconfig:1$" actual
'

test_expect_success 'a missing top Kconfig is fatal' '
	mkdir -p empty &&
	test_expect_code 128 test-kconfig empty 2>err &&
	grep "cannot read Kconfig" err
'

test_expect_success 'endif, endmenu, endchoice must match their block' '
	mkdir -p blocks &&
	cat >blocks/Kconfig <<\EOT &&
menu "m"
if A
endmenu
endif
endmenu
choice
config C1
	bool "c1"
endif
endchoice
config OUT
	bool
EOT
	test_expect_code 1 test-kconfig --details blocks >actual 2>err &&
	grep "Kconfig:3: .endmenu. in the .if. block of Kconfig:2" err &&
	grep "Kconfig:9: .endif. in the .choice. block of Kconfig:6" err &&
	test $(grep -c error: err) = 2 &&
	grep -A1 "^config OUT" actual >out &&
	printf "config OUT bool Kconfig:11\nconfig C1 bool Kconfig:7\n" >expect &&
	grep "^config" actual >configs &&
	grep -A1 "^config C1" actual | grep "in choice" &&
	! grep -A1 "^config OUT" actual | grep "depends on"
'

test_expect_success 'messages quote the tree'"'"'s raw bytes as \xNN and stay bounded' '
	mkdir -p bytes &&
	printf "config A\n\tbool \"a\"\n\t\302 depends on B\n" >bytes/Kconfig &&
	long=$(printf "%04000d" 0 | tr 0 x) &&
	printf "config L\n\tbool\n\t%s\n" "$long" >>bytes/Kconfig &&
	test_might_fail test-kconfig bytes >actual 2>err &&
	grep "Kconfig:3: ignoring unsupported character .\\\\xc2." err &&
	! grep "$(printf "\302")" err &&
	grep "Kconfig:6: unknown statement .xxx.*\.\.\.$" err &&
	awk "length > 600 { bad = 1 } END { exit bad }" err
'

test_expect_success 'a NUL byte is shown as \\x00, not cut out of the message' '
	mkdir -p nul &&
	printf "config A\n\tbool \"a\"\nfoo\000bar\n" >nul/Kconfig &&
	test_expect_code 1 test-kconfig nul 2>err &&
	grep "nul/Kconfig:3: ignoring unsupported character .\\\\x00.\$" err ||
	grep "Kconfig:3: ignoring unsupported character .\\\\x00.\$" err
'

test_expect_success 'one mistake 10,000 times: 100 messages of the file, then that the rest is not shown' '
	mkdir -p menus &&
	{ printf "config A\n\tbool \"a\"\n" && seq -f "menu \"m%g\"" 10000; } >menus/Kconfig &&
	test_expect_code 1 test-kconfig menus >out 2>err &&
	test_line_count = 102 err &&
	grep "^10000 errors" err &&
	grep "more than 100 errors and warnings; the rest of this file.s are not shown" err
'

test_done
