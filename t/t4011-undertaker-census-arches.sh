#!/bin/sh
test_description='git undertaker --all on every architecture with workers: one model per architecture for all of them, the files under arch/<arch>/ taken by one worker at a time, the same verdicts as one thread'
. ./test-lib.sh

test_expect_success 'setup: four architectures, blocks alive on some, dead on all, dead on their own' '
	write_file Kconfig <<-\EOF &&
	mainmenu "Linux/$(SRCARCH)"
	source "arch/$(SRCARCH)/Kconfig"
	config HAVE_BAR
		bool
	config BAR
		bool "bar"
		depends on HAVE_BAR
	config FOO
		bool "foo"
	EOF
	for a in x86 arm m68k sh; do
		mkdir -p arch/$a &&
		printf "config %s\n\tdef_bool y\n" $(echo $a | tr a-z A-Z) >arch/$a/Kconfig ||
		return 1
	done &&
	printf "\tselect HAVE_BAR\n" >>arch/x86/Kconfig &&
	printf "\tselect HAVE_BAR\n" >>arch/arm/Kconfig &&
	mkdir -p lib &&
	for i in $(seq 1 200); do
		cat >lib/f$i.c <<-\EOF || return 1
		#ifdef CONFIG_BAR
		int bar;
		#endif
		#ifdef CONFIG_M68K
		int m68k;
		#endif
		#if defined(CONFIG_SH) && defined(CONFIG_BAR)
		int sh_bar;
		#endif
		#if defined(CONFIG_BAR) && !defined(CONFIG_HAVE_BAR)
		int never;
		#endif
		EOF
	done &&
	for f in arch/m68k/bar arch/sh/bar arch/x86/bar $(seq -f arch/m68k/more%g 1 12) \
		 $(seq -f arch/sh/more%g 1 12); do
		cat >$f.c <<-\EOF || return 1
		#ifdef CONFIG_BAR
		int bar;
		#endif
		#ifdef CONFIG_FOO
		int foo;
		#endif
		EOF
	done &&
	git add . && test_tick && git commit -q -m arches
'

test_expect_success 'the census: global defects (checked on every model) and local ones' '
	test_expect_code 1 git undertaker --no-notes --all -j 1 >one 2>err &&
	test $(grep -c "^lib/f[0-9]*.c:7: dead block B2 (kconfig, global)" one) = 200 &&
	test $(grep -c "^lib/f[0-9]*.c:10: dead block B3 (kconfig, global)" one) = 200 &&
	grep "^arch/m68k/bar.c:1: dead block B0 (kconfig, local: m68k)" one &&
	grep "^arch/sh/bar.c:1: dead block B0 (kconfig, local: sh)" one &&
	test $(grep -c "^arch/m68k/.*: dead block B0 (kconfig, local: m68k)" one) = 13 &&
	test $(grep -c "^arch/sh/.*: dead block B0 (kconfig, local: sh)" one) = 13 &&
	! grep "^arch/x86/" one &&
	test $(grep -c ": dead block " one) = 426
'

test_expect_success 'two and three workers find the same, each model built once (the primary one per worker)' '
	for j in 2 3; do
		test_expect_code 1 env UNDERTAKER_STATS=1 \
			git undertaker --no-notes --all -j $j >many 2>err &&
		test_cmp one many &&
		sed -n "s/^model build \([a-z0-9]*\): .*/\1/p" err | sort | uniq -c >built &&
		test $(wc -l <built) = 4 &&
		test $(awk "\$1 > 1" built | wc -l) -le 1 &&
		test $(awk "\$1 > $j" built | wc -l) = 0 || return 1
	done
'

test_done
