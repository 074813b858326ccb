#!/bin/sh
test_description='git undertaker: a long range whose commits change Kconfig files keeps its memory bounded (lexed files evicted, build-file scans forgotten) and reports the same'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

# Kconfig: 300 options; commit N adds EXTRA_N. Commit 12 removes
# OPT_5, which a.c names: that commit adds a defect, which every budget reports.
write_kconfig () {
	i=1 &&
	{
		printf "config OPT_0\n\tbool \"0\"\n" &&
		while test $i -lt 300
		do
			test $i = 5 && test -n "$2" && i=$((i + 1)) && continue
			printf "config OPT_%d\n\tbool \"option %d\"\n\tdepends on OPT_%d\n\thelp\n\t  Option %d of a long Kconfig file.\n" \
				$i $i 0 $i
			i=$((i + 1))
		done &&
		printf "config EXTRA_%d\n\tbool \"extra\"\n" "$1"
	} >Kconfig
}

test_expect_success 'setup: 24 commits, each changing the Kconfig file' '
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_OPT_5
	int five;
	#endif
	EOF
	n=0 &&
	while test $n -lt 24
	do
		if test $n -ge 12
		then
			write_kconfig $n gone
		else
			write_kconfig $n
		fi &&
		git add . && test_tick && git commit -q -m "commit $n" &&
		n=$((n + 1)) || return 1
	done &&
	test $(wc -c <Kconfig) -gt 20000
'

test_expect_success 'the range with the default budget: nothing evicted, one defect' '
	test_expect_code 1 env UNDERTAKER_STATS=1 git undertaker --no-notes -j1 HEAD~23..HEAD >roomy 2>err &&
	grep "^kconfig cache: 24 files lexed, [0-9]* reused, 0 evicted" err &&
	grep "a.c:1: dead block B0 (missing CONFIG_OPT_5" roomy
'

test_expect_success 'a 64 KiB budget: files evicted, at most the budget held, the same report' '
	test_expect_code 1 env UNDERTAKER_STATS=1 UNDERTAKER_KCONFIG_CACHE=64 \
		git undertaker --no-notes -j1 HEAD~23..HEAD >tight 2>err &&
	test_cmp roomy tight &&
	evicted=$(sed -n "s/^kconfig cache: .* \([0-9]*\) evicted.*/\1/p" err) &&
	test "$evicted" -gt 10 &&
	held=$(sed -n "s/^kconfig cache: .* evicted; \([0-9]*\) KB held at most/\1/p" err) &&
	test "$held" -le 100
'

test_expect_success 'two workers and a tight budget: the same report' '
	test_expect_code 1 env UNDERTAKER_KCONFIG_CACHE=64 \
		git undertaker --no-notes -j2 HEAD~23..HEAD >threads &&
	test_cmp roomy threads
'

test_expect_success 'the range after its build-file scans were forgotten: the same report, notes too' '
	rm -rf .git/undertaker &&
	test_expect_code 1 git undertaker HEAD~23..HEAD >noted &&
	test_cmp roomy noted &&
	git notes --ref=undertaker show HEAD~11 >note &&
	grep "^Undertaker: 1 new" note
'

test_expect_success 'two architectures, a Kconfig change: the parent side is done and its other models freed before the commit side builds its own' '
	git init -q arches &&
	(
		cd arches &&
		write_arch_kconfig &&
		write_file arch/alpha/Kconfig <<-\EOF &&
		config ALPHA
			def_bool y
		EOF
		write_file arch/beta/Kconfig <<-\EOF &&
		config BETA
			def_bool y
		EOF
		write_file a.c <<-\EOF &&
		#if defined(CONFIG_ALPHA) && defined(CONFIG_BETA)
		int both;
		#endif
		EOF
		git add . && test_tick && git commit -q -m base &&
		printf "config OTHER\n\tbool \"other\"\n" >>Kconfig &&
		write_file a.c <<-\EOF &&
		#if defined(CONFIG_ALPHA) && defined(CONFIG_BETA)
		int both;
		#endif
		#if defined(CONFIG_BETA) && !defined(CONFIG_BETA)
		int never;
		#endif
		EOF
		git add . && test_tick && git commit -q -m change &&
		for j in 1 2; do
			test_expect_code 1 env UNDERTAKER_STATS=1 \
				git undertaker --no-notes -j$j HEAD^! >out 2>err &&
			grep "^a.c:4: dead block B1 (code, global)" out &&
			! grep "^a.c:1:" out &&
			# Both sides build both models; the parent'"'"'s non-primary one is
			# freed (its figures printed) before the commit'"'"'s is built.
			test $(grep -c "^model build" err) = 4 &&
			grep -n "^model build\|solver calls" err >order &&
			grep -A1 -m1 "model build beta" order | tail -n 1 >next &&
			grep "beta: .* solver calls" next || return 1
		done
	)
'

test_done
