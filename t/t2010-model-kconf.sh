#!/bin/sh
test_description='the model accepts every configuration the kernel'\''s own conf makes

On small Kconfig trees (t2010/*: tristates, select, imply, defaults, menus,
visible if, if blocks, choices of every kind, comparisons, a tree without
MODULES, several definitions of one symbol, select of a choice member,\nimply, defaults above the visibility), conf'\''s allnoconfig, allyesconfig,
allmodconfig, alldefconfig and 60 randconfigs with fixed seeds must all
satisfy the model.'
. ./test-lib.sh

# make_configs <tree>: conf's configurations of the tree into configs/<tree>/
make_configs () {
	dir="$UT_SRC_DIR/t/t2010/$1" &&
	mkdir -p "configs/$1" &&
	for mode in allnoconfig allyesconfig allmodconfig alldefconfig; do
		srctree="$dir" KCONFIG_CONFIG="configs/$1/$mode" \
			"$KCONF" --$mode Kconfig >/dev/null || return 1
	done &&
	seed=1 &&
	while test $seed -le 60; do
		srctree="$dir" KCONFIG_SEED=$seed KCONFIG_CONFIG="configs/$1/rand$seed" \
			"$KCONF" --randconfig Kconfig >/dev/null 2>&1 || return 1
		seed=$((seed + 1))
	done
}

for tree in mixed nomod tricky; do
	test_expect_success KCONF "conf's configurations of '$tree' satisfy the model" "
		make_configs $tree &&
		test-model \"\$UT_SRC_DIR/t/t2010/$tree\" check configs/$tree/* >out &&
		test \$(grep -c ': ok\$' out) = 64
	"
	test_expect_success KCONF "randconfigs of '$tree' differ (the test is not vacuous)" "
		test \$(cat configs/$tree/rand* | sort | uniq -c | awk '\$1 < 60' | wc -l) -gt 10
	"
done

test_expect_success KCONF 'a tristate default m with MODULES off is y in conf and in the model' '
	grep "^CONFIG_SUB2=y" configs/nomod/alldefconfig &&
	test-model "$UT_SRC_DIR/t/t2010/nomod" sat SUB1=y SUB2=m >out;
	grep "^unsat" out
'

test_expect_success KCONF 'select from an m symbol makes a bool y; imply is capped by the dependency' '
	tree="$UT_SRC_DIR/t/t2010/tricky" &&
	test_expect_code 1 test-model "$tree" sat P7=m P8=n >out &&
	grep "^Kconfig:64: CONFIG_P8: select" out &&
	test_expect_code 1 test-model "$tree" sat P9=y P11=n T1=y >out &&
	grep "^Kconfig:77: CONFIG_P11: default" out &&
	test-model "$tree" sat P9=y P11=n T1=n &&
	test-model "$tree" sat P1=y T1=m
'

test_expect_success KCONF 'a choice whose prompt is hidden: 6.1 leaves its members n, 6.11+ picks one' '
	tree="$UT_SRC_DIR/t/t2010/tricky" &&
	test-model "$tree" sat T1=y B1=n HP1=n HP2=n &&
	test-model "$tree" sat T1=y B1=n HP1=y &&
	test_expect_code 1 test-model "$tree" sat T1=n HP1=y &&
	test_expect_code 1 test-model "$tree" sat HP1=y HP2=y
'

test_expect_success KCONF 'a choice member whose prompt condition names the member before leaves the choice (bool "B" if A)' '
	mkdir -p promptif &&
	cat >promptif/Kconfig <<-\EOF &&
	choice
		bool "c"
	config A
		bool "A"
	config B
		bool "B" if A
	endchoice
	EOF
	printf "CONFIG_A=y\nCONFIG_B=y\n" >promptif/both &&
	srctree=promptif KCONFIG_CONFIG=promptif/both "$KCONF" --olddefconfig Kconfig >/dev/null &&
	grep "^CONFIG_A=y" promptif/both &&
	grep "^CONFIG_B=y" promptif/both &&
	test-model promptif check promptif/both >out &&
	grep ": ok$" out &&
	for mode in allnoconfig allyesconfig alldefconfig; do
		srctree=promptif KCONFIG_CONFIG=promptif/$mode "$KCONF" --$mode Kconfig >/dev/null &&
		test-model promptif check promptif/$mode >out &&
		grep ": ok$" out || return 1
	done
'

test_expect_success 'option defconfig_list (kconfig before 5.15) is never written: a .config without it is valid' '
	mkdir -p dlist &&
	cat >dlist/Kconfig <<-\EOF &&
	config DEFCONFIG_LIST
		string
		option defconfig_list
		default "arch/$(ARCH)/defconfig"
	config FOO
		bool "foo"
	EOF
	printf "CONFIG_FOO=y\n" >dlist/config &&
	test-model dlist check dlist/config >out &&
	grep ": ok$" out
'

test_done
