#!/bin/sh
test_description='git undertaker: a select whose target'"'"'s own dependencies may be false (kind unmet)'
. ./test-lib.sh

# conf's warnings for the tree at HEAD with the configuration on stdin.
conf_warnings () {
	rm -rf conftree && mkdir conftree &&
	git archive HEAD | tar -x -C conftree &&
	cat >conftree/.config &&
	(cd conftree && srctree=. KCONFIG_CONFIG=.config "$KCONF" --olddefconfig Kconfig) 2>&1 |
	grep "unmet direct dependencies" || :
}

test_expect_success 'setup: X depends on nothing, S selects X, T selects X within X'"'"'s dependency' '
	write_file Kconfig <<-\EOF &&
	config A
		bool "a"
	source "lib/Kconfig"
	source "drivers/Kconfig"
	EOF
	write_file lib/Kconfig <<-\EOF &&
	config X
		bool "x"
	EOF
	write_file drivers/Kconfig <<-\EOF &&
	config S
		bool "s"
		select X
	if A
	config T
		bool "t"
		select X
	endif
	EOF
	git add Kconfig lib drivers && test_tick && git commit -q -m base &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'a depends on added to X in another file makes S'"'"'s untouched select unmet' '
	write_file lib/Kconfig <<-\EOF &&
	config X
		bool "x"
		depends on A
	EOF
	git add lib && test_tick && git commit -q -m "X depends on A" && git tag unmet &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) X depends on A
	drivers/Kconfig:3: unmet (kconfig, global): select X (CONFIG_X depends on A)
	EOF
	test_cmp expect out
'

test_expect_success 'JSON: X first, then S' '
	test_expect_code 1 git undertaker --no-notes --format=json HEAD >out &&
	grep "\"kind\":\"unmet\",\"cause\":\"kconfig\"" out &&
	grep "\"symbols\":\[\"CONFIG_X\",\"CONFIG_S\"\]" out
'

test_expect_success KCONF 'conf agrees: S=y with A=n warns for X, T within if A does not' '
	printf "CONFIG_S=y\n" | conf_warnings >warn &&
	grep "unmet direct dependencies detected for X" warn &&
	printf "CONFIG_A=y\nCONFIG_T=y\n" | conf_warnings >warn &&
	test_must_be_empty warn
'

test_expect_success 'a later commit that keeps it reports nothing new; --all finds it' '
	printf "config U\n\tbool \"u\"\n" >>drivers/Kconfig &&
	git add drivers && test_tick && git commit -q -m U &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	test_expect_code 1 git undertaker --no-notes --all HEAD >out &&
	grep "^drivers/Kconfig:3: unmet (kconfig, global): select X (CONFIG_X depends on A)$" out
'

test_expect_success 'the fix: S depends on A too' '
	sed -i "2a\\	depends on A" drivers/Kconfig &&
	git add drivers && test_tick && git commit -q -m "S depends on A" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	git undertaker --no-notes --show=all HEAD >out &&
	grep "^drivers/Kconfig:3: unmet (kconfig, global): select X (CONFIG_X depends on A) \[fixed\]$" out
'

test_expect_success KCONF 'conf agrees that the fix holds' '
	printf "CONFIG_S=y\n" | conf_warnings >warn &&
	test_must_be_empty warn
'

test_expect_success 'tristate: a y select of a symbol that can only be m' '
	write_file Kconfig <<-\EOF &&
	config MODULES
		bool "modules"
		modules
	config M
		tristate "m"
	config Y
		tristate "y"
		depends on M
	config BY
		bool "by"
		select Y
	EOF
	git rm -q -r lib drivers &&
	git add Kconfig && test_tick && git commit -q -m tristate &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^Kconfig:11: unmet (kconfig, global): select Y (CONFIG_Y depends on M)$" out
'

test_expect_success KCONF 'conf agrees: M=m with BY=y warns for Y' '
	printf "CONFIG_MODULES=y\nCONFIG_M=m\nCONFIG_BY=y\n" | conf_warnings >warn &&
	grep "unmet direct dependencies detected for Y" warn
'

test_expect_success 'a dependency only on what the compiler can do is not unmet; the user'"'"'s is' '
	write_file Kconfig <<-\EOF &&
	config CC_HAS_PAD
		def_bool $(cc-option,-fpatchable-function-entry=16,16)
	config A
		bool "a"
	config PAD
		def_bool n
		depends on CC_HAS_PAD
	config PAD_A
		def_bool n
		depends on CC_HAS_PAD && A
	config WANTS_PAD
		def_bool y
		select PAD
	config WANTS_PAD_A
		bool "wants"
		select PAD_A
	EOF
	git add Kconfig && test_tick && git commit -q -m probes &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	tail -n +2 out >actual &&
	echo "Kconfig:16: unmet (kconfig, global): select PAD_A (CONFIG_PAD_A depends on A)" >expect &&
	test_cmp expect actual
'

test_expect_success 'a bool target whose dependency is m is not unmet when a bool selects it' '
	write_file Kconfig <<-\EOF &&
	config MODULES
		bool "modules"
		modules
	config UART
		tristate "uart"
	config SERDEV
		bool "serdev"
		depends on UART
	config H4
		bool "h4"
		depends on UART
	config LL
		bool "ll"
		depends on SERDEV
		select H4
	EOF
	git add Kconfig && test_tick && git commit -q -m bool-m &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success KCONF 'conf agrees: UART=m with LL=y does not warn for H4' '
	printf "CONFIG_MODULES=y\nCONFIG_UART=m\nCONFIG_SERDEV=y\nCONFIG_LL=y\n" | conf_warnings >warn &&
	test_must_be_empty warn
'

test_expect_success 'a select decided through a comparison the model cannot weigh (A >= B) is not reported' '
	write_file Kconfig <<-\EOF &&
	config MODULES
		bool "modules"
		modules
	config CRYPTO
		tristate "crypto"
	config JR
		tristate "jr"
		depends on CRYPTO
	config KEYS
		tristate "keys"
	config BLOB
		bool
		depends on CRYPTO
	if KEYS
	config KEYS_JR
		bool "keys in jr"
		depends on JR >= KEYS
		select BLOB
	endif
	EOF
	git add Kconfig && test_tick && git commit -q -m compare &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'a dependency chain proves a select met (S needs A, A needs B, X needs B || COMPILE_TEST)' '
	write_file Kconfig <<-\EOF &&
	config B
		bool "b"
	config A
		bool "a"
		depends on B
	config S
		bool "s"
		depends on A
		select X
	config X
		bool
		depends on B || COMPILE_TEST
	config COMPILE_TEST
		bool "compile test"
	EOF
	git add Kconfig && test_tick && git commit -q -m chain &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success KCONF 'conf agrees: no warning for X' '
	printf "CONFIG_B=y\nCONFIG_A=y\nCONFIG_S=y\n" | conf_warnings >warn &&
	test_must_be_empty warn
'

test_expect_success 'a link of the chain that another symbol selects breaks it: the select is unmet' '
	cat >>Kconfig <<-\EOF &&
	config T
		bool "t"
		select A
	EOF
	git add Kconfig && test_tick && git commit -q -m "T selects A" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^Kconfig:9: unmet (kconfig, global): select X (CONFIG_X depends on B || COMPILE_TEST)" out
'

test_expect_success KCONF 'conf agrees: T=y and S=y with B=n warn for X' '
	printf "CONFIG_T=y\nCONFIG_S=y\n" | conf_warnings >warn &&
	grep "unmet direct dependencies detected for X" warn
'

test_expect_success 'met through what S selects, S itself and whole conjuncts (!C, D || E, A = y): not asked' '
	write_file Kconfig <<-\EOF &&
	config MODULES
		bool "modules"
		modules
	config A
		tristate "a"
	config C
		bool "c"
	config D
		bool "d"
	config E
		bool "e"
	config Y
		bool "y"
	config S
		bool "s"
		depends on !C && (D || E) && A = y
		select Y
		select X
		select Z
	config X
		bool
		depends on Y && !C && (D || E) && A
	config Z
		bool
		depends on S || C
	EOF
	git add Kconfig && test_tick && git commit -q -m "met selects" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success KCONF 'conf agrees: no warning with S on' '
	printf "CONFIG_MODULES=y\nCONFIG_A=y\nCONFIG_D=y\nCONFIG_S=y\n" | conf_warnings >warn &&
	test_must_be_empty warn
'

test_expect_success 'a select under another condition, or A != n for a tristate A, proves nothing' '
	write_file Kconfig <<-\EOF &&
	config MODULES
		bool "modules"
		modules
	config A
		tristate "a"
	config Q
		bool "q"
	config Y
		bool "y"
	config S
		bool "s"
		select Y if Q
		select X
	config X
		bool
		depends on Y
	config T
		tristate "t"
		depends on A != n
		select W
	config W
		tristate
		depends on A
	EOF
	git add Kconfig && test_tick && git commit -q -m "unmet selects" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^Kconfig:13: unmet (kconfig, global): select X (CONFIG_X depends on Y)$" out &&
	grep "^Kconfig:20: unmet (kconfig, global): select W (CONFIG_W depends on A)$" out
'

test_expect_success KCONF 'conf agrees: S=y with Q=n warns for X, T=y with A=m for W' '
	printf "CONFIG_S=y\n" | conf_warnings >warn &&
	grep "unmet direct dependencies detected for X" warn &&
	printf "CONFIG_MODULES=y\nCONFIG_A=m\nCONFIG_T=y\n" | conf_warnings >warn &&
	grep "unmet direct dependencies detected for W" warn
'

test_done
