#!/bin/sh
test_description='git undertaker: options whose dependencies never hold (dead) or that every configuration sets (undead)'
. ./test-lib.sh

# The value conf keeps for CONFIG_$1 at HEAD, given the configuration on stdin.
conf_value () {
	rm -rf conftree && mkdir conftree &&
	git archive HEAD | tar -x -C conftree &&
	cat >conftree/.config &&
	(cd conftree && srctree=. KCONFIG_CONFIG=.config "$KCONF" --olddefconfig Kconfig) >/dev/null 2>&1 &&
	sed -n "s/^CONFIG_$1=//p" conftree/.config
}

test_expect_success 'setup: nothing dead' '
	write_file Kconfig <<-\EOF &&
	config A
		bool "a"
	config B
		bool "b"
	source "drivers/Kconfig"
	EOF
	write_file drivers/Kconfig <<-\EOF &&
	if B
	config F
		bool "f"
	endif
	config G
		bool "g"
		depends on A
	EOF
	git add Kconfig drivers && test_tick && git commit -q -m base &&
	git undertaker --no-notes --all HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'B made unreachable in Kconfig: the untouched F of drivers/Kconfig is dead' '
	sed -i "s/bool \"b\"/bool \"b\"\n\tdepends on A \&\& !A/" Kconfig &&
	git add Kconfig && test_tick && git commit -q -m "B never" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) B never
	Kconfig:3: dead (kconfig, global): config B (depends on A && !A)
	drivers/Kconfig:2: dead (kconfig, global): config F (depends on B)
	EOF
	test_cmp expect out
'

test_expect_success KCONF 'conf agrees: F=y and B=y are not kept' '
	printf "CONFIG_A=y\nCONFIG_B=y\nCONFIG_F=y\n" | conf_value F >val &&
	test_must_be_empty val &&
	printf "CONFIG_A=y\nCONFIG_G=y\n" | conf_value G >val &&
	echo y >expect && test_cmp expect val
'

test_expect_success 'JSON: kind dead, no block; the next commit reports nothing new' '
	test_expect_code 1 git undertaker --no-notes --format=json HEAD >out &&
	grep "\"path\":\"drivers/Kconfig\",\"line\":2,\"end_line\":2,\"kind\":\"dead\",\"cause\":\"kconfig\"" out &&
	! grep "\"block\"" out &&
	printf "config H\n\tbool \"h\"\n" >>drivers/Kconfig &&
	git add drivers && test_tick && git commit -q -m H &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'a rewrite that keeps it dead keeps it unchanged; the fix shows as fixed' '
	sed -i "s/^if B$/if B \&\& B/" drivers/Kconfig &&
	git add drivers && test_tick && git commit -q -m "if B && B" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	sed -i "/depends on A && !A/d" Kconfig &&
	git add Kconfig && test_tick && git commit -q -m "B again" &&
	git undertaker --no-notes --show=all HEAD >out &&
	grep "^Kconfig:3: dead (kconfig, global): config B (depends on A && !A) \[fixed\]$" out &&
	grep "^drivers/Kconfig:2: dead (kconfig, global): config F (depends on B && B) \[fixed\]$" out
'

test_expect_success 'a dependency on a name nothing defines: dead (missing), --explain names the nearest' '
	printf "config BAD\n\tbool \"bad\"\n\tdepends on AA\n" >>drivers/Kconfig &&
	git add drivers && test_tick && git commit -q -m BAD &&
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "^drivers/Kconfig:10: dead (missing CONFIG_AA, global): config BAD (depends on AA)$" out &&
	grep "^drivers/Kconfig:12: undefined (missing CONFIG_AA, global): depends on AA$" out &&
	grep "did you mean CONFIG_A (Kconfig:1)" out
'

test_expect_success 'undead: an option with a prompt that a symbol always on selects' '
	git reset -q --hard HEAD~1 &&
	printf "config ON\n\tbool\n\tdefault y\n\tselect G\n" >>Kconfig &&
	git add Kconfig && test_tick && git commit -q -m ON &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^drivers/Kconfig:5: undead (kconfig, global): config G (depends on A)$" out &&
	grep "^Kconfig:9: unmet (kconfig, global): select G (CONFIG_G depends on A)$" out
'

test_expect_success 'an option alive only on an architecture after one that does not read its file is not dead' '
	git init -q multi &&
	(
		cd multi &&
		write_file Kconfig <<-\EOF &&
		mainmenu "$(SRCARCH)"
		source "arch/$(SRCARCH)/Kconfig"
		config FEAT1
			bool
		config FEAT2
			def_bool y if FEAT1
		EOF
		for a in x86 arm sh; do
			mkdir -p arch/$a &&
			printf "config %s\n\tdef_bool y\n" $(echo $a | tr a-z A-Z) >arch/$a/Kconfig ||
			return 1
		done &&
		printf "\tselect FEAT1\nsource \"drivers/sh/Kconfig\"\n" >>arch/sh/Kconfig &&
		printf "source \"drivers/sh/Kconfig\"\n" >>arch/x86/Kconfig &&
		write_file drivers/sh/Kconfig <<-\EOF &&
		config SH_ONLY
			bool "only where FEAT2 holds"
			depends on FEAT2
		config NOWHERE
			bool "nowhere"
			depends on FEAT2 && X86
		EOF
		git add Kconfig arch drivers && test_tick && git commit -q -m multi &&
		test_expect_code 1 git undertaker --no-notes --all HEAD >out &&
		tail -n +2 out >actual &&
		echo "drivers/sh/Kconfig:4: dead (kconfig, global): config NOWHERE (depends on FEAT2 && X86)" >expect &&
		test_cmp expect actual
	)
'

test_expect_success 'options switched off on purpose (depends on BROKEN or n, or on one of those) are no defect' '
	git init -q off &&
	(
		cd off &&
		write_file Kconfig <<-\EOF &&
		config BROKEN
			bool
		config A
			bool "a"
		config WIP
			bool "work in progress"
			depends on A && BROKEN
		config WIP_ERRATUM
			bool "an erratum of WIP"
			depends on WIP
		config OLD
			bool "old"
			depends on n
		config REALLY_DEAD
			bool "dead"
			depends on A && !A
		EOF
		git add Kconfig && test_tick && git commit -q -m off &&
		test_expect_code 1 git undertaker --no-notes --all HEAD >out &&
		tail -n +2 out >actual &&
		echo "Kconfig:14: dead (kconfig, global): config REALLY_DEAD (depends on A && !A)" >expect &&
		test_cmp expect actual
	)
'

test_done
