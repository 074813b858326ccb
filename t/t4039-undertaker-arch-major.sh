#!/bin/sh
test_description='git undertaker: a side of a commit asks the other architectures model by model (one besides the primary alive at a time), with the same report'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup: three architectures, 20 files whose blocks are dead on every one (the old one unchanged)' '
	write_arch_kconfig &&
	for a in alpha beta gamma
	do
		A=$(echo $a | tr a-z A-Z) &&
		mkdir -p arch/$a &&
		printf "config %s\n\tdef_bool y\n" $A >arch/$a/Kconfig || return 1
	done &&
	for f in a b $(seq -f f%02g 1 18)
	do
		write_file $f.c <<-\EOF || return 1
		#if defined(CONFIG_BETA) && defined(CONFIG_GAMMA)
		int two;
		#endif
		EOF
	done &&
	git add . && test_tick && git commit -q -m base &&
	printf "config OTHER\n\tbool \"other\"\n" >>Kconfig &&
	for f in a b $(seq -f f%02g 1 18)
	do
		write_file $f.c <<-\EOF || return 1
		#if defined(CONFIG_BETA) && defined(CONFIG_GAMMA)
		int two;
		#endif
		#if defined(CONFIG_ALPHA) && defined(CONFIG_GAMMA)
		int none;
		#endif
		EOF
	done &&
	git add . && test_tick && git commit -q -m change
'

test_expect_success 'each other model is freed before the next is built, on each side' '
	test_expect_code 1 env UNDERTAKER_STATS=1 git undertaker --no-notes -j1 HEAD^! >out 2>err &&
	grep "^a.c:4: dead block B1 (kconfig, global)" out &&
	grep "^b.c:4: dead block B1 (kconfig, global)" out &&
	! grep ":1:" out &&
	# Both sides ask beta and gamma (the primary one, alpha, stays).
	test $(grep -c "^model build beta" err) = 2 &&
	test $(grep -c "^model build gamma" err) = 2 &&
	grep "^model build \(beta\|gamma\)\|^\(beta\|gamma\): .*solver calls" err |
		sed "s/^model build \([a-z]*\).*/+\1/; s/^\([a-z]*\): .*/-\1/" >order &&
	printf "%s\n" +beta -beta +gamma -gamma +beta -beta +gamma -gamma >expect &&
	test_cmp expect order
'

test_expect_success 'two workers (20 files: each side shared out): the same report, each other model built once per side' '
	test $(grep -c "dead block B1" out) = 20 &&
	test_expect_code 1 env UNDERTAKER_STATS=1 git undertaker --no-notes -j2 HEAD^! >out2 2>err2 &&
	test_cmp out out2 &&
	test $(grep -c "^model build beta" err2) = 2 &&
	test $(grep -c "^model build gamma" err2) = 2
'

test_expect_success 'the census on every architecture: each other model built once, used by the files that ask it and by its own, freed before the next' '
	mkdir -p arch/beta arch/gamma &&
	write_file arch/beta/own.c <<-\EOF &&
	#ifdef CONFIG_GAMMA
	int beta_never_gamma;
	#endif
	EOF
	write_file arch/gamma/own.c <<-\EOF &&
	#ifdef CONFIG_BETA
	int gamma_never_beta;
	#endif
	EOF
	git add . && test_tick && git commit -q -m own &&
	test_expect_code 1 env UNDERTAKER_STATS=1 git undertaker --all --no-notes -j1 HEAD >out 2>err &&
	grep "^arch/beta/own.c:1: dead block B0 (kconfig" out &&
	grep "^arch/gamma/own.c:1: dead block B0 (kconfig" out &&
	grep "^a.c:4: dead block B1 (kconfig, global)" out &&
	grep "^model build \(beta\|gamma\)\|^\(beta\|gamma\): .*solver calls" err |
		sed "s/^model build \([a-z]*\).*/+\1/; s/^\([a-z]*\): .*/-\1/" >order &&
	printf "%s\n" +beta -beta +gamma -gamma >expect &&
	test_cmp expect order &&
	test_expect_code 1 env UNDERTAKER_STATS=1 git undertaker --all --no-notes -j2 HEAD >out2 2>err2 &&
	test_cmp out out2 &&
	test $(grep -c "^model build beta" err2) = 1 &&
	test $(grep -c "^model build gamma" err2) = 1
'

test_expect_success 'the census on threads (each a model at a time): the same report as one thread, each model built once' '
	mkdir six && (
		cd six && git init -q &&
		write_arch_kconfig &&
		for a in a1 a2 a3 a4 a5 a6
		do
			A=$(echo $a | tr a-z A-Z) &&
			mkdir -p arch/$a &&
			printf "config %s\n\tdef_bool y\nconfig ONLY_%s\n\tbool \"only\"\n" $A $A >arch/$a/Kconfig &&
			for f in 1 2 3
			do
				printf "#ifdef CONFIG_%s\nint x;\n#endif\n#ifdef CONFIG_ONLY_%s\nint y;\n#endif\n" \
					$A $A >arch/$a/own$f.c || return 1
			done || return 1
		done &&
		for f in $(seq -f f%02g 1 24)
		do
			# Dead on every architecture: every file asks every model, in order.
			printf "#if defined(CONFIG_COMMON)\n#if defined(CONFIG_A1) && defined(CONFIG_A2)\nint none;\n#endif\n#endif\n" >$f.c || return 1
		done &&
		git add . && test_tick && git commit -q -m six &&
		test_expect_code 1 git undertaker --all --no-notes -j1 HEAD >../six1 &&
		for j in 2 3
		do
			test_expect_code 1 env UNDERTAKER_STATS=1 git undertaker --all --no-notes -j$j HEAD \
				>../six$j 2>../err$j &&
			test_cmp ../six1 ../six$j &&
			for a in a2 a3 a4 a5 a6
			do
				test $(grep -c "^model build $a:" ../err$j) = 1 || return 1
			done || return 1
		done
	) &&
	grep "^arch/a2/own1.c:1: undead block B0 (kconfig, local: a2)" six1 &&
	grep "^f01.c:2: dead block B1 (kconfig, global)" six1 &&
	test $(grep -c "dead block B1 (kconfig, global)" six1) = 24
'

test_done
