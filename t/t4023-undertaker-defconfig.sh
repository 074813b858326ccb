#!/bin/sh
test_description='git undertaker: defconfig lines that set a name no Kconfig file defines'
. ./test-lib.sh

test_expect_success 'setup: a tree with defconfigs in configs/ and arch/<a>/configs/' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	config OLD_SCSI
		bool "old scsi"
	config BAR
		int "bar"
	EOF
	write_file configs/board_defconfig <<-\EOF &&
	CONFIG_FOO=y
	CONFIG_OLD_SCSI=y
	CONFIG_BAR=3
	EOF
	write_file arch/x/configs/tiny.config <<-\EOF &&
	# CONFIG_OLD_SCSI is not set
	EOF
	write_file include/configs/board.h <<-\EOF &&
	#define CONFIG_SYS_NOT_KCONFIG 1
	EOF
	git add Kconfig configs arch include && test_tick && git commit -q -m base && git tag base &&
	git undertaker --no-notes --all HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'a defconfig line naming a symbol nothing defines: undefined, at that line' '
	printf "CONFIG_FOOO=y\n# CONFIG_GONE is not set\nCONFIG_FOO_OK=n\n#CONFIG_ not a line\n" >>configs/board_defconfig &&
	printf "config FOO_OK\n\tbool \"ok\"\n" >>Kconfig &&
	git add Kconfig configs arch include && test_tick && git commit -q -m typo && git tag typo &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) typo
	configs/board_defconfig:4: undefined (missing CONFIG_FOOO, global): CONFIG_FOOO=y
	configs/board_defconfig:5: undefined (missing CONFIG_GONE, global): # CONFIG_GONE is not set
	EOF
	test_cmp expect out &&
	test_expect_code 1 git undertaker --no-notes --format=json HEAD >out &&
	grep "\"path\":\"configs/board_defconfig\",\"line\":4,\"end_line\":4,\"kind\":\"undefined\",\"cause\":\"missing\"" out &&
	grep "\"missing\":\[\"CONFIG_FOOO\"\]" out
'

test_expect_success 'removing a symbol from Kconfig makes the untouched defconfig lines that set it stale' '
	sed -i "/OLD_SCSI/,+1d" Kconfig &&
	git add Kconfig && test_tick && git commit -q -m "remove OLD_SCSI" && git tag removed &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) remove OLD_SCSI
	arch/x/configs/tiny.config:1: undefined (missing CONFIG_OLD_SCSI, global): # CONFIG_OLD_SCSI is not set
	configs/board_defconfig:2: undefined (missing CONFIG_OLD_SCSI, global): CONFIG_OLD_SCSI=y
	EOF
	test_cmp expect out
'

test_expect_success '--explain names the commit that removed it and the nearest name' '
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "^    CONFIG_OLD_SCSI was defined at Kconfig:3 until $(git rev-parse --short=12 removed)" out &&
	test_expect_code 1 git undertaker --no-notes --explain typo >out &&
	grep "^    CONFIG_FOOO is defined nowhere; did you mean CONFIG_FOO (Kconfig:1)?$" out
'

test_expect_success 'an unrelated change to the defconfig reports nothing new; --all lists them' '
	sed -i "s/CONFIG_BAR=3/CONFIG_BAR=4/" configs/board_defconfig &&
	git add Kconfig configs arch include && test_tick && git commit -q -m bar &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	test_expect_code 1 git undertaker --no-notes --all HEAD -- configs/ >out &&
	grep -c undefined out >n && echo 3 >expect && test_cmp expect n
'

test_expect_success 'a merge reports nothing a parent had; the fix shows as fixed' '
	git checkout -q -b side removed &&
	printf "CONFIG_FOO=y\n" >configs/other_defconfig &&
	git add Kconfig configs arch include && test_tick && git commit -q -m other &&
	git checkout -q - && test_tick && git merge -q --no-edit side &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	sed -i "/OLD_SCSI/d; /FOOO/d; /GONE/d" configs/board_defconfig arch/x/configs/tiny.config &&
	git add Kconfig configs arch include && test_tick && git commit -q -m "resync defconfigs" &&
	git undertaker --no-notes --show=all HEAD >out &&
	grep "^configs/board_defconfig:2: undefined (missing CONFIG_OLD_SCSI, global): CONFIG_OLD_SCSI=y \[fixed\]$" out &&
	git undertaker --no-notes --all HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'an accept trailer accepts a new one' '
	printf "CONFIG_LEGACY=y\n" >>configs/other_defconfig &&
	git add Kconfig configs arch include && test_tick && git commit -q -m legacy -m "Undertaker-Accept: LEGACY" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

test_expect_success 'a test suite'"'"'s inputs (scripts/kconfig/tests/, a test/configs/) are no defconfigs; boards'"'"' are' '
	write_file scripts/kconfig/tests/choice/defconfig <<-\EOF &&
	CONFIG_CHOICE_VAL0=y
	EOF
	write_file tools/buildman/test/configs/board0_defconfig <<-\EOF &&
	CONFIG_BOARD0=y
	EOF
	write_file boards/vendor/myboard/myboard_defconfig <<-\EOF &&
	CONFIG_NO_SUCH_BOARD_OPTION=y
	EOF
	write_file configs/tests_defconfig <<-\EOF &&
	CONFIG_NO_SUCH_TESTS_OPTION=y
	EOF
	git add scripts tools boards configs && test_tick && git commit -q -m "test inputs" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) test inputs
	boards/vendor/myboard/myboard_defconfig:1: undefined (missing CONFIG_NO_SUCH_BOARD_OPTION, global): CONFIG_NO_SUCH_BOARD_OPTION=y
	configs/tests_defconfig:1: undefined (missing CONFIG_NO_SUCH_TESTS_OPTION, global): CONFIG_NO_SUCH_TESTS_OPTION=y
	EOF
	test_cmp expect out
'

test_done
