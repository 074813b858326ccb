#!/bin/sh
test_description='the model against conf: a differential over generated Kconfig files

bench/kconfig-differential.py has the kernel'\''s conf write configurations of
Kconfig files (allno/allyes/allmod/alldef, randconfigs, olddefconfigs of random
assignments), reads each back with conf --olddefconfig, and asks the model
whether it accepts what conf keeps. Here it runs over the kernel'\''s own
scripts/kconfig/tests/ and a few hundred files from bench/kconfig-gen.py; the
bench runs it on thousands.'
. ./test-lib.sh

command -v python3 >/dev/null && test_set_prereq PYTHON
BENCH="$UT_SRC_DIR/bench"
MODEL="$UT_BUILD_DIR/t/helper/test-model"

# forced_against_conf DIR LINES: conf --olddefconfig of LINES (DIR/in) into
# DIR/out, and what test-model forced says of the two, into `actual`.
forced_against_conf () {
	printf "$2" >"$1/in" &&
	cp "$1/in" "$1/out" &&
	(cd "$1" && KCONFIG_CONFIG=out "$KCONF" --olddefconfig Kconfig >/dev/null) &&
	test-model "$1" forced "$1/in" "$1/out" >actual
}

test_expect_success PYTHON 'the generator writes the same file for the same seed, others for others' '
	python3 "$BENCH/kconfig-gen.py" 7 a &&
	python3 "$BENCH/kconfig-gen.py" 7 b &&
	python3 "$BENCH/kconfig-gen.py" 8 c &&
	test_cmp a/Kconfig b/Kconfig &&
	! test_cmp a/Kconfig c/Kconfig >/dev/null &&
	grep "^choice" a/Kconfig c/Kconfig >/dev/null
'

test_expect_success KCONF 'a select from a member of a bool choice under an m condition: y in 6.1' '
	write_file cm/Kconfig <<-\EOF &&
	config MODULES
		bool "m"
		modules
		default y
	config T
		tristate "t"
	if T
	choice
		prompt "c"
	config A
		bool "a"
		select X
	config B
		bool "b"
	endchoice
	endif
	config X
		tristate
	EOF
	printf "CONFIG_MODULES=y\nCONFIG_T=m\nCONFIG_A=y\n" >cm/in &&
	(cd cm && KCONFIG_CONFIG=in "$KCONF" --olddefconfig Kconfig >/dev/null) &&
	grep "^CONFIG_X=y" cm/in &&
	test-model cm check cm/in &&
	# 6.10 and later give X=m: the model allows both, not n
	test-model cm sat MODULES=y T=m A=y X=m &&
	test_expect_code 1 test-model cm sat MODULES=y T=m A=y X=n
'

test_expect_success KCONF 'an imply from such a member: y in 6.1 as well' '
	write_file ci/Kconfig <<-\EOF &&
	config MODULES
		bool "m"
		modules
		default y
	config T
		tristate "t"
	choice
		prompt "c"
		depends on T
	config A
		bool "a"
		imply X
	config B
		bool "b"
	endchoice
	config X
		tristate "x"
	EOF
	printf "CONFIG_MODULES=y\nCONFIG_T=m\nCONFIG_A=y\n" >ci/in &&
	(cd ci && KCONFIG_CONFIG=in "$KCONF" --olddefconfig Kconfig >/dev/null) &&
	grep "^CONFIG_X=y" ci/in &&
	test-model ci check ci/in &&
	test-model ci sat MODULES=y T=m A=y X=m
'

test_expect_success KCONF 'a defconfig reads a string whose default is no constant: no crash, nothing forced wrong' '
	write_file sd/Kconfig <<-\EOF &&
	config MODULES
		bool "m"
		modules
		default y
	config NAME
		string "name"
		default "a"
	config BOARD
		string
		default NAME
	config ON_A
		bool "on a"
		depends on BOARD = "a"
	EOF
	forced_against_conf sd "CONFIG_ON_A=y\n" &&
	# BOARD = "a" is a comparison the model leaves free: ON_A is not known
	echo "forced 1, otherwise 0" >expect &&
	test_cmp expect actual
'

test_expect_success PYTHON,KCONF 'the kernel'\''s own kconfig tests: every configuration conf keeps is accepted' '
	python3 "$BENCH/kconfig-differential.py" --conf "$KCONF" --model "$MODEL" \
		--kernel-tests "$UT_BUILD_DIR/kconfig/src/scripts/kconfig/tests" >out &&
	cat out &&
	grep "rejected 0; " out &&
	grep "^files [1-9][0-9]* (conf refused [0-9]*), configurations [1-9]" out
'

test_expect_success PYTHON,KCONF '200 generated files: every configuration conf keeps is accepted' '
	python3 "$BENCH/kconfig-differential.py" --conf "$KCONF" --model "$MODEL" \
		--generated 200 --rand 1 --old 1 >out &&
	cat out &&
	grep "^files 200 " out &&
	grep "rejected 0; values forced [1-9][0-9][0-9]" out
'

test_expect_success KCONF 'what a defconfig forces by evaluation is what conf gives, and a difference is told' '
	write_file fv/Kconfig <<-\EOF &&
	config MODULES
		bool "m"
		modules
		default y
	config OF
		bool "of"
	config DRV
		tristate "drv"
		depends on OF
	config HELPER
		bool
		default y if DRV
	config P
		bool "p"
		depends on SIZE > 4
	config SIZE
		int "size"
		default 8
	choice
		prompt "c"
	config X
		bool "x"
	config Y
		bool "y"
	endchoice
	EOF
	forced_against_conf fv "CONFIG_OF=y\nCONFIG_DRV=m\nCONFIG_P=y\nCONFIG_Y=y\nCONFIG_X=y\n" &&
	# MODULES, OF, DRV, X, Y: P depends on a comparison the model leaves
	# free, and no line depends on HELPER (the defconfig check never asks it)
	echo "forced 5, otherwise 0" >expect &&
	test_cmp expect actual &&
	sed "s/^CONFIG_DRV=m/CONFIG_DRV=y/" fv/out >fv/wrong &&
	test_expect_code 1 test-model fv forced fv/in fv/wrong >actual &&
	grep "^DRV: forced m, conf gives y" actual
'

test_expect_success PYTHON,KCONF 'the harness is not vacuous: a model that misses a rule is caught' '
	python3 "$BENCH/kconfig-gen.py" 13 g &&
	mkdir -p bad &&
	cat >bad/test-model <<-EOF &&
	#!/bin/sh
	# the real model, with every select dropped from the files it reads
	dir=\$1; shift
	rm -rf "\$dir.noselect" && mkdir "\$dir.noselect" &&
	sed "/^[[:space:]]*select /d" "\$dir/Kconfig" >"\$dir.noselect/Kconfig" &&
	exec "$MODEL" "\$dir.noselect" "\$@"
	EOF
	chmod +x bad/test-model &&
	test_expect_code 1 python3 "$BENCH/kconfig-differential.py" --conf "$KCONF" \
		--model "$PWD/bad/test-model" --generated 20 --rand 1 --old 1 >out &&
	grep "^REJECTED seed [0-9]* .*: " out &&
	grep "rejected [1-9]" out
'

test_done
