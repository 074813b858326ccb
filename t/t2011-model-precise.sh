#!/bin/sh
test_description='the model rejects configurations kconfig cannot produce

Each impossible configuration is one change to a valid one, and each must be
rejected with the Kconfig line of the constraint it breaks.'
. ./test-lib.sh

test_expect_success 'a small tree and a valid configuration of it' '
	write_file tree/Kconfig <<-\EOF &&
	config MODULES
		bool "modules"
		modules
	config A
		bool "a"
	config S
		tristate "s"
		select T
	config T
		tristate
		depends on A
	config INV
		bool
		default y if A
	config BO
		bool "bo"
	config TR
		tristate "tr"
	choice
		prompt "pick one"
	config C1
		bool "c1"
	config C2
		bool "c2"
	endchoice
	EOF
	cat >valid <<-\EOF &&
	CONFIG_MODULES=y
	CONFIG_A=y
	CONFIG_S=y
	CONFIG_T=y
	CONFIG_INV=y
	CONFIG_BO=y
	CONFIG_TR=m
	CONFIG_C1=y
	# CONFIG_C2 is not set
	EOF
	test-model tree check valid >out &&
	grep "valid: ok" out
'

test_expect_success KCONF 'conf keeps that configuration as it is' '
	cp valid .config &&
	srctree=tree KCONFIG_CONFIG=.config "$KCONF" --olddefconfig Kconfig &&
	grep "^CONFIG" .config | sort >actual &&
	grep "^CONFIG" valid | sort >expect &&
	test_cmp expect actual
'

# reject <name> <sed expression> <expected message>
reject () {
	sed "$2" valid >"$1" &&
	test_expect_code 1 test-model tree check "$1" >out &&
	grep "$1: rejected" out &&
	grep "$3" out
}

test_expect_success 'two members of one choice' '
	reject two-members "s/^# CONFIG_C2 is not set/CONFIG_C2=y/" "^Kconfig:19: <choice>: choice"
'

test_expect_success 'no member of a visible choice' '
	reject no-member "s/^CONFIG_C1=y/# CONFIG_C1 is not set/" "^Kconfig:19: <choice>: choice"
'

test_expect_success 'a selected symbol off, although its dependency holds' '
	reject unselected "s/^CONFIG_T=y/# CONFIG_T is not set/" "^Kconfig:6: CONFIG_T: select"
'

test_expect_success 'a selected tristate only m while the selector is y' '
	reject selected-m "s/^CONFIG_T=y/CONFIG_T=m/" "^Kconfig:6: CONFIG_T: select"
'

test_expect_success 'an invisible symbol away from its default (off)' '
	reject default-off "s/^CONFIG_INV=y/# CONFIG_INV is not set/" "^Kconfig:12: CONFIG_INV: default"
'

test_expect_success 'an invisible symbol away from its default (on)' '
	sed -e "s/^CONFIG_A=y/# CONFIG_A is not set/" -e "s/^CONFIG_S=y/# CONFIG_S is not set/" \
		-e "s/^CONFIG_T=y/# CONFIG_T is not set/" valid >default-on &&
	test_expect_code 1 test-model tree check default-on >out &&
	grep "default-on: rejected" out &&
	grep "^Kconfig:12: CONFIG_INV: default" out
'

test_expect_success 'm for a bool' '
	reject bool-m "s/^CONFIG_BO=y/CONFIG_BO=m/" "CONFIG_BO: a bool cannot be m"
'

test_expect_success 'a module without MODULES' '
	reject no-modules "s/^CONFIG_MODULES=y/# CONFIG_MODULES is not set/" "^Kconfig:17: CONFIG_TR: tristate"
'

test_expect_success 'a symbol on without its dependency' '
	sed -e "s/^CONFIG_S=y/# CONFIG_S is not set/" -e "s/^CONFIG_A=y/# CONFIG_A is not set/" \
		-e "s/^CONFIG_INV=y/# CONFIG_INV is not set/" valid >no-dep &&
	test_expect_code 1 test-model tree check no-dep >out &&
	grep "no-dep: rejected" out &&
	grep "^Kconfig:9: CONFIG_T: depends on" out
'

test_expect_success 'queries: select overrides depends on, and an explanation names the lines' '
	test-model tree sat S=y A=n >out &&
	grep "^sat" out &&
	test_expect_code 1 test-model tree sat S=y T=n >out &&
	grep "^unsat" out &&
	grep "^Kconfig:6: CONFIG_T: select" out &&
	test_expect_code 1 test-model tree sat C1 C2 >out &&
	grep "^Kconfig:19: <choice>: choice: one member" out
'

test_expect_success 'dead and undead symbols' '
	write_file alive/Kconfig <<-\EOF &&
	config ON
		def_bool y
	config OFF
		bool "off"
		depends on UNDEFINED
	config FREE
		bool "free"
	config FOLLOWS
		bool
		default FREE || ON
	EOF
	test-model alive alive >out 2>err &&
	cat >expect <<-\EOF &&
	undead CONFIG_ON
	dead CONFIG_OFF
	undead CONFIG_FOLLOWS
	EOF
	test_cmp expect out &&
	grep "4 symbols asked, 1 dead, 2 undead" err
'

test_done
