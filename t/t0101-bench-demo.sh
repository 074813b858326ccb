#!/bin/sh
test_description='bench/demo: the Kconfig facts the demo history relies on, checked with the kernel'"'"'s conf'
. ./test-lib.sh

demo="$UT_SRC_DIR/bench/demo"

# tree <step>...: the demo tree as of the last step named, steps applied in order.
tree () {
	rm -rf tree && mkdir tree &&
	for s in "$@"; do
		(cd "$demo/$s" && tar -cf - --exclude=COMMIT_MSG .) | (cd tree && tar -xf -) || return 1
	done
}

# conf_with <fragment lines...>: alldefconfig with those values asked for, into out.
conf_with () {
	printf '%s\n' "$@" >frag &&
	srctree="$PWD/tree" KCONFIG_CONFIG="$PWD/out" KCONFIG_ALLCONFIG="$PWD/frag" \
		"$KCONF" --alldefconfig Kconfig >log 2>&1
}

test_expect_success KCONF 'every demo step parses with the kernel'"'"'s kconfig' '
	tree 1-initial && conf_with "" && grep "^CONFIG_NET_TCP=y" out &&
	tree 1-initial 2-secure-link && conf_with "" && grep "^# CONFIG_SECURE_LINK is not set" out &&
	tree 1-initial 2-secure-link 3-udp-stats 4-foo-debug-builtin && conf_with "" &&
	grep "^# CONFIG_DRIVER_FOO is not set" out
'

test_expect_success KCONF 'step 2: SECURE_LINK selects CRYPTO (the dead and the undead block)' '
	tree 1-initial 2-secure-link &&
	conf_with CONFIG_SECURE_LINK=y "# CONFIG_CRYPTO is not set" &&
	grep "^CONFIG_SECURE_LINK=y" out &&
	grep "^CONFIG_CRYPTO=y" out
'

test_expect_success KCONF 'step 2: the misspelled NET_UPD is no symbol of the tree' '
	tree 1-initial 2-secure-link &&
	! grep -r "NET_UPD" tree --include="Kconfig*" &&
	grep -q "CONFIG_NET_UPD" tree/net/link.c
'

test_expect_success KCONF 'before step 4, FOO_DEBUG goes with a modular foo driver' '
	tree 1-initial 2-secure-link 3-udp-stats &&
	conf_with CONFIG_MODULES=y CONFIG_DRIVER_FOO=m CONFIG_FOO_DEBUG=y &&
	grep "^CONFIG_DRIVER_FOO=m" out &&
	grep "^CONFIG_FOO_DEBUG=y" out
'

test_expect_success KCONF 'after step 4 it does not: the IS_MODULE block of foo.c is dead' '
	tree 1-initial 2-secure-link 3-udp-stats 4-foo-debug-builtin &&
	conf_with CONFIG_MODULES=y CONFIG_DRIVER_FOO=m CONFIG_FOO_DEBUG=y &&
	grep "^CONFIG_DRIVER_FOO=m" out &&
	! grep "^CONFIG_FOO_DEBUG=y" out &&
	test_cmp "$demo/1-initial/drivers/foo/foo.c" tree/drivers/foo/foo.c
'

test_expect_success 'bench/demo.sh shows the defects of the demo history and exits 0' '
	BENCH_WORK="$PWD/work" "$UT_SRC_DIR/bench/demo.sh" >demo.out 2>demo.err &&
	grep "^net/link.c:7: undead block B1 (kconfig, global): #ifdef CONFIG_CRYPTO" demo.out &&
	grep "^net/link.c:16: dead block B3 (kconfig, global): #if defined(CONFIG_SECURE_LINK)" demo.out &&
	grep "^net/link.c:21: dead block B4 (missing CONFIG_NET_UPD, global): #ifdef CONFIG_NET_UPD" demo.out &&
	grep "^drivers/foo/foo.c:7: dead block B1 (kconfig, global): #if IS_MODULE(CONFIG_DRIVER_FOO)" demo.out &&
	grep "^(exit 1: a commit in the range adds a defect)" demo.out &&
	grep "Undertaker: 0 new, 0 fixed" demo.out &&
	test $(git -C work/demo notes --ref=undertaker list | wc -l) = 3
'

test_done
