#!/bin/sh
test_description='kconfig: architectures, glob and relative source, reading from a commit'
. ./test-lib.sh

test_expect_success 'a tree with architectures' '
	mkdir -p tree/arch/alpha tree/arch/beta tree/arch/nokconfig tree/init tree/drivers/a tree/drivers/b tree/drivers/c &&
	cat >tree/Kconfig <<\EOT &&
mainmenu "Test/$(ARCH)"
source "init/Kconfig"
source "drivers/*/Kconfig"
osource "drivers/none*/Kconfig"
EOT
	cat >tree/init/Kconfig <<\EOT &&
config INIT
	bool "init"
source "arch/Kconfig"
EOT
	cat >tree/arch/Kconfig <<\EOT &&
source "arch/$(SRCARCH)/Kconfig"
config ARCH_NAME
	string
	default "$(ARCH)"
EOT
	cat >tree/arch/alpha/Kconfig <<\EOT &&
config ALPHA
	def_bool y
config SHARED
	bool
EOT
	cat >tree/arch/beta/Kconfig <<\EOT &&
config BETA
	def_bool y
config SHARED
	tristate
EOT
	echo "# no Kconfig here" >tree/arch/nokconfig/Makefile &&
	for d in a b c; do
		printf "config DRV_%s\n\tbool\nrsource \"sub.kconfig\"\n" $d >tree/drivers/$d/Kconfig &&
		printf "config SUB_%s\n\tbool\n" $d >tree/drivers/$d/sub.kconfig || return 1
	done
'

test_expect_success 'the architectures are the arch/*/ that hold a Kconfig' '
	test-kconfig --arches tree >actual &&
	printf "alpha\nbeta\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'one model per architecture, $(SRCARCH) and $(ARCH) set' '
	test-kconfig --all-arches tree >actual &&
	cat >expect <<\EOT &&
# arch alpha
CONFIG_INIT bool init/Kconfig:1
CONFIG_ALPHA bool arch/alpha/Kconfig:1
CONFIG_SHARED bool arch/alpha/Kconfig:3
CONFIG_ARCH_NAME string arch/Kconfig:2
CONFIG_DRV_a bool drivers/a/Kconfig:1
CONFIG_SUB_a bool drivers/a/sub.kconfig:1
CONFIG_DRV_b bool drivers/b/Kconfig:1
CONFIG_SUB_b bool drivers/b/sub.kconfig:1
CONFIG_DRV_c bool drivers/c/Kconfig:1
CONFIG_SUB_c bool drivers/c/sub.kconfig:1
# arch beta
CONFIG_INIT bool init/Kconfig:1
CONFIG_BETA bool arch/beta/Kconfig:1
CONFIG_SHARED tristate arch/beta/Kconfig:3
CONFIG_ARCH_NAME string arch/Kconfig:2
CONFIG_DRV_a bool drivers/a/Kconfig:1
CONFIG_SUB_a bool drivers/a/sub.kconfig:1
CONFIG_DRV_b bool drivers/b/Kconfig:1
CONFIG_SUB_b bool drivers/b/sub.kconfig:1
CONFIG_DRV_c bool drivers/c/Kconfig:1
CONFIG_SUB_c bool drivers/c/sub.kconfig:1
EOT
	test_cmp expect actual &&
	test-kconfig --arch=beta --details tree >beta &&
	grep "default \"beta\"" beta &&
	grep "^mainmenu \"Test/beta\"" beta
'

test_expect_success 'files shared by architectures are lexed once' '
	test-kconfig --all-arches --stats --no-dump tree 2>err &&
	grep "s, 11 files lexed, 9 reused" err
'

test_expect_success 'a glob that matches nothing is an error; osource is not' '
	printf "source \"nothing/*/Kconfig\"\nosource \"nothing/Kconfig\"\n" >tree/Kconfig.bad &&
	test_expect_code 1 test-kconfig tree Kconfig.bad 2>err &&
	grep "error: Kconfig.bad:1: no file matches \"nothing/\*/Kconfig\"" err &&
	test $(grep -c error: err) = 1
'

test_expect_success 'a tree without arch/$(SRCARCH) has a single model' '
	mkdir -p flat/arch/x &&
	printf "config F\n\tbool\n" >flat/Kconfig &&
	printf "config X\n\tbool\n" >flat/arch/x/Kconfig &&
	test-kconfig --arches flat >actual &&
	test_must_be_empty actual &&
	test-kconfig --all-arches flat >actual &&
	echo "CONFIG_F bool Kconfig:1" >expect &&
	test_cmp expect actual
'

test_expect_success 'the same tree read from a commit gives the same models' '
	cp -R tree/. . &&
	git add Kconfig init arch drivers &&
	git commit -q -m tree &&
	test-kconfig --git=HEAD --all-arches >from-git &&
	test-kconfig --all-arches tree >from-fs &&
	test_cmp from-fs from-git &&
	test-kconfig --git=HEAD --arches >arches &&
	printf "alpha\nbeta\n" >expect &&
	test_cmp expect arches
'

test_expect_success 'a reader per architecture finds the lexed files in the shared cache' '
	test-kconfig --git=HEAD --all-arches --reader-per-arch --stats >per-arch 2>err &&
	test_cmp from-fs per-arch &&
	grep "s, 11 files lexed, 9 reused" err
'

test_expect_success 'architectures parsed in two threads sharing the cache give the same models' '
	test-kconfig --all-arches -j 2 tree >threads &&
	test_cmp from-fs threads &&
	test-kconfig --git=HEAD --all-arches -j 2 --stats >threads 2>err &&
	test_cmp from-fs threads &&
	grep "s, 11 files lexed, 9 reused" err
'

test_expect_success 'a cache over its budget lexes files again and gives the same models' '
	test-kconfig --all-arches --cache-kib=1 --stats tree >tiny 2>err &&
	test_cmp from-fs tiny &&
	lexed=$(sed -n "s/.* s, \([0-9]*\) files lexed.*/\1/p" err) &&
	test "$lexed" -gt 11 &&
	held=$(sed -n "s/^cache: [1-9][0-9]* evicted, \([0-9]*\) bytes held.*/\1/p" err) &&
	test "$held" -le 1024 &&
	test-kconfig --git=HEAD --all-arches -j 2 --cache-kib=1 --stats >tiny 2>err &&
	test_cmp from-fs tiny &&
	test-kconfig --all-arches --cache-kib=1024 --stats tree >roomy 2>err &&
	test_cmp from-fs roomy &&
	grep "s, 11 files lexed, 9 reused" err &&
	grep "cache: 0 evicted" err
'

test_expect_success 'reading from an older commit sees that commit only' '
	printf "config NEW\n\tbool\n" >>init/Kconfig &&
	git commit -q -a -m new &&
	test-kconfig --git=HEAD --arch=alpha >new &&
	test-kconfig --git=HEAD^ --arch=alpha >old &&
	grep "^CONFIG_NEW bool init/Kconfig:4" new &&
	! grep NEW old
'

test_done
