#!/bin/sh
test_description='git undertaker: names no Kconfig file defines, at the Kconfig line that names them'
. ./test-lib.sh

test_expect_success 'setup' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	config OLD_NAME
		bool "old"
	source "drivers/Kconfig"
	osource "Kconfig.side"
	EOF
	write_file drivers/Kconfig <<-\EOF &&
	config DRV
		bool "drv"
		depends on FOO
	EOF
	git add Kconfig drivers/Kconfig && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'an undefined select, depends on and default ... if: one line each' '
	cat >>drivers/Kconfig <<-\EOF &&
	config DRV2
		bool "drv2" if FOO
		depends on FOO && !NO_SUCH_DEP
		select NO_SUCH_SEL if DRV
		default y if DRV || NO_SUCH_DEFAULT
		default 0x320a if FOO
		default $(shell,echo NOT_A_SYMBOL)
		help
		  Say Y if NOT_IN_HELP is what you want.
		  default y if NOT_IN_HELP_EITHER

		  depends on STILL_HELP
	config DRV3
		int "drv3"
		range 1 NO_SUCH_MAX
		default "NOT_A_STRING_SYMBOL"
	EOF
	git add Kconfig drivers/Kconfig && test_tick && git commit -q -m "drv2" && git tag drv2 &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) drv2
	drivers/Kconfig:6: undefined (missing CONFIG_NO_SUCH_DEP, global): depends on FOO && !NO_SUCH_DEP
	drivers/Kconfig:7: undefined (missing CONFIG_NO_SUCH_SEL, global): select NO_SUCH_SEL if DRV
	drivers/Kconfig:8: undefined (missing CONFIG_NO_SUCH_DEFAULT, global): default y if DRV || NO_SUCH_DEFAULT
	drivers/Kconfig:18: undefined (missing CONFIG_NO_SUCH_MAX, global): range 1 NO_SUCH_MAX
	EOF
	test_cmp expect out
'

test_expect_success 'JSON: kind undefined, the name in missing, no block' '
	test_expect_code 1 git undertaker --no-notes --format=json HEAD >out &&
	grep "\"path\":\"drivers/Kconfig\",\"line\":7,\"end_line\":7,\"kind\":\"undefined\",\"cause\":\"missing\",\"scope\":\"global\"" out &&
	grep "\"missing\":\[\"CONFIG_NO_SUCH_SEL\"\]" out &&
	! grep "\"block\"" out
'

test_expect_success 'the next commit touching that file reports nothing new' '
	printf "config DRV4\n\tbool \"drv4\"\n" >>drivers/Kconfig &&
	git add Kconfig drivers/Kconfig && test_tick && git commit -q -m drv4 &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	git undertaker --no-notes --show=all HEAD >out &&
	grep "drivers/Kconfig:7: undefined (missing CONFIG_NO_SUCH_SEL, global): select NO_SUCH_SEL if DRV \[unchanged\]" out
'

test_expect_success 'a rewrite of the line that keeps the name keeps the defect unchanged' '
	sed -i "s/select NO_SUCH_SEL if DRV/select NO_SUCH_SEL if DRV \&\& FOO/" drivers/Kconfig &&
	git add Kconfig drivers/Kconfig && test_tick && git commit -q -m rewrite &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'defining the name fixes it' '
	printf "config NO_SUCH_SEL\n\tbool\n" >>Kconfig &&
	git add Kconfig drivers/Kconfig && test_tick && git commit -q -m "define NO_SUCH_SEL" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	git undertaker --no-notes --show=all HEAD >out &&
	grep "drivers/Kconfig:7: undefined (missing CONFIG_NO_SUCH_SEL, global): select NO_SUCH_SEL if DRV && FOO \[fixed\]" out
'

test_expect_success 'a rename in one file makes an untouched line in another undefined: that commit reports it' '
	printf "config USER\n\tbool \"user\"\n\tdepends on OLD_NAME\n" >>drivers/Kconfig &&
	git add Kconfig drivers/Kconfig && test_tick && git commit -q -m user &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	sed -i "s/^config OLD_NAME/config NEW_NAME/" Kconfig &&
	git add Kconfig && test_tick && git commit -q -m "rename OLD_NAME" && git tag renamed &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^drivers/Kconfig:.*: undefined (missing CONFIG_OLD_NAME, global): depends on OLD_NAME$" out
'

test_expect_success '--explain: where the name was defined, and the nearest defined name' '
	test_expect_code 1 git undertaker --no-notes --explain renamed >out &&
	grep "^    CONFIG_OLD_NAME was defined at Kconfig:3 until $(git rev-parse --short=12 renamed) (\"rename OLD_NAME\"), which renamed it CONFIG_NEW_NAME$" out &&
	grep "^    CONFIG_OLD_NAME is defined nowhere; did you mean CONFIG_NEW_NAME (Kconfig:3)?$" out &&
	test_expect_code 1 git undertaker --no-notes --explain drv2 >out &&
	grep "^    CONFIG_NO_SUCH_DEP is defined" out
'

test_expect_success '--all: the census of Kconfig lines, with a pathspec' '
	test_expect_code 1 git undertaker --no-notes --all HEAD -- drivers/Kconfig >out &&
	grep "drivers/Kconfig:.*missing CONFIG_OLD_NAME" out &&
	grep "drivers/Kconfig:.*missing CONFIG_NO_SUCH_DEP" out &&
	test_expect_code 1 git undertaker --no-notes --all HEAD >all &&
	test_cmp out all &&
	git undertaker --no-notes --all HEAD -- Kconfig >out &&
	test_must_be_empty out
'

test_expect_success 'a merge reports nothing a parent had' '
	git checkout -q -b side drv2 &&
	printf "config SIDE\n\tbool \"side\"\n\tdepends on SIDE_TYPO\n" >Kconfig.side &&
	git add Kconfig.side && test_tick && git commit -q -m side &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^Kconfig.side:3: undefined (missing CONFIG_SIDE_TYPO, global): depends on SIDE_TYPO$" out &&
	git checkout -q - &&
	test_tick && git merge -q --no-edit side &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	git undertaker --no-notes --show=all HEAD >out &&
	grep "^Kconfig.side:3: .*SIDE_TYPO.* \[unchanged\]$" out
'

test_expect_success 'an accept trailer accepts the new undefined name' '
	printf "config LATE\n\tbool \"late\"\n\tselect LATER_TYPO\n" >>drivers/Kconfig &&
	git add Kconfig drivers/Kconfig && test_tick && git commit -q -m late -m "Undertaker-Accept: LATER_TYPO" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	git undertaker --no-notes --show=all HEAD >out &&
	grep "missing CONFIG_LATER_TYPO, global): select LATER_TYPO \[accepted\]" out
'

test_expect_success 'a statement continued with a backslash is printed on one line' '
	cat >>drivers/Kconfig <<-\EOF &&
	config CONT
		bool "cont"
		depends on FOO || \
			(FOO && !CONT_TYPO)
	EOF
	git add drivers/Kconfig && test_tick && git commit -q -m cont &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^drivers/Kconfig:[0-9]*: undefined (missing CONFIG_CONT_TYPO, global): depends on FOO || (FOO && !CONT_TYPO)$" out
'

test_done
