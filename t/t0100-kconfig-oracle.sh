#!/bin/sh
test_description='the kernel'"'"'s own kconfig (conf), built by make from linux-source, works as an oracle'
. ./test-lib.sh

# Two symbols: FOO is user-visible and on by default, BAR has no prompt and
# follows FOO, so every configuration conf writes has BAR equal to FOO.
test_expect_success KCONF 'set up a two-symbol Kconfig tree' '
	write_file tree/Kconfig <<-\EOF
	mainmenu "oracle test"

	config FOO
		bool "foo"
		default y

	config BAR
		bool
		default y
		depends on FOO
	EOF
'

test_expect_success KCONF 'conf --alldefconfig writes the defaults' '
	srctree="$PWD/tree" KCONFIG_CONFIG="$PWD/out" "$KCONF" --alldefconfig Kconfig >log &&
	grep "^CONFIG_FOO=y\$" out &&
	grep "^CONFIG_BAR=y\$" out
'

test_expect_success KCONF 'conf --allnoconfig turns the prompt off and the follower with it' '
	srctree="$PWD/tree" KCONFIG_CONFIG="$PWD/out" "$KCONF" --allnoconfig Kconfig >log &&
	grep "^# CONFIG_FOO is not set\$" out &&
	! grep "^CONFIG_BAR" out
'

test_expect_success KCONF 'a KCONFIG_ALLCONFIG fragment is honoured' '
	echo "# CONFIG_FOO is not set" >frag &&
	srctree="$PWD/tree" KCONFIG_CONFIG="$PWD/out" KCONFIG_ALLCONFIG="$PWD/frag" \
		"$KCONF" --alldefconfig Kconfig >log &&
	grep "^# CONFIG_FOO is not set\$" out &&
	! grep "^CONFIG_BAR=y" out
'

test_done
