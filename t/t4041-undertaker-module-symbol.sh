#!/bin/sh
test_description='git undertaker: a bool FOO beside a symbol named FOO_MODULE (U-Boot'"'"'s MTD_UBI and MTD_UBI_MODULE)'
. ./test-lib.sh

# CONFIG_UBI_MODULE is the macro of the symbol UBI_MODULE, not the "m" of
# the bool UBI: saying it false (as for any bool's m) made UBI itself
# impossible, every block under it dead, and every defconfig that sets UBI
# contradict the model, so that its dropped lines went unreported once a
# source that names CONFIG_UBI had been checked.
test_expect_success 'setup' '
	write_file Kconfig <<-\EOF &&
	config UBI
		bool "ubi"
	if UBI
	config UBI_MODULE
		def_bool y
	endif
	config FORCE
		bool "force"
		select BOOTFILE
	config BOOTFILE
		bool "bootfile"
	EOF
	mkdir -p drivers &&
	echo "obj-y += drivers/" >Makefile &&
	echo "obj-y += a.o" >drivers/Makefile &&
	write_file drivers/a.c <<-\EOF &&
	#ifdef CONFIG_UBI
	int ubi;
	#ifdef CONFIG_UBI_MODULE
	int errors;
	#endif
	#endif
	#if IS_ENABLED(CONFIG_UBI)
	int enabled;
	#endif
	EOF
	write_file configs/t_defconfig <<-\EOF &&
	CONFIG_UBI=y
	CONFIG_FORCE=y
	# CONFIG_BOOTFILE is not set
	EOF
	git add . && test_tick && git commit -q -m tree
'

test_expect_success 'the blocks under CONFIG_UBI are alive; the one that UBI_MODULE always sets is undead' '
	test_expect_code 1 git undertaker --no-notes --all -- drivers/ >out &&
	grep "^drivers/" out >actual &&
	echo "drivers/a.c:3: undead block B1 (kconfig, global): #ifdef CONFIG_UBI_MODULE" >expect &&
	test_cmp expect actual
'

test_expect_success 'the defconfig line kconfig drops is reported, the source checked before it or not' '
	echo "configs/t_defconfig:3: dropped (kconfig, global): # CONFIG_BOOTFILE is not set (kconfig makes it y: CONFIG_FORCE)" >expect &&
	test_expect_code 1 git undertaker --no-notes --all -- configs/ >out &&
	grep "^configs/" out >actual &&
	test_cmp expect actual &&
	rm -rf .git/undertaker &&
	test_expect_code 1 git undertaker --no-notes --all -j1 >out &&
	grep "^configs/" out >actual &&
	test_cmp expect actual
'

test_expect_success KCONF 'the kernel'"'"'s conf agrees: BOOTFILE ends y, UBI_MODULE y' '
	rm -rf conftree && mkdir conftree &&
	git archive HEAD | tar -x -C conftree &&
	cp configs/t_defconfig conftree/.config &&
	(cd conftree && srctree=. KCONFIG_CONFIG=.config "$KCONF" --olddefconfig Kconfig) >/dev/null 2>&1 &&
	grep "^CONFIG_BOOTFILE=y" conftree/.config &&
	grep "^CONFIG_UBI_MODULE=y" conftree/.config
'

test_done
