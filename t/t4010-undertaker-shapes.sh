#!/bin/sh
test_description='undertaker and vampyr: cost linear in the shape of a C file

10k nested #ifs and #elif chains of 10k arms; chains of 6,000 arms and
8,000 nested #ifs naming missing symbols. Each command runs under
ulimit -t 20 (CPU seconds): they take well under a second now (a few under
the sanitizers); block identity, presence conditions and the bound of
vampyr were quadratic or worse in depth and chain length, 61 s of CPU and
2.4 GB for the undertaker, over ten minutes for vampyr.'
. ./test-lib.sh

test_expect_success 'setup: 10k nested #ifs, an #elif chain of 10k arms' '
	printf "config A\n\tbool \"a\"\nconfig B\n\tbool \"b\"\n" >Kconfig &&
	git add Kconfig && test_tick && git commit -q -m base && git tag base &&
	perl -e "print qq(#if CONFIG_A\n) x 10000, qq(int x;\n), qq(#endif\n) x 10000" >nest.c &&
	git add nest.c && test_tick && git commit -q -m nest && git tag nest &&
	perl -e "print qq(#if CONFIG_A\nint a;\n); print qq(#elif CONFIG_B\nint b;\n) for 1..10000; print qq(#endif\n)" >elif.c &&
	git add elif.c && test_tick && git commit -q -m elif && git tag elif &&
	test $(grep -c "^#if" nest.c) = 10000 &&
	test $(grep -c "^#elif" elif.c) = 10000
'

test_expect_success 'undertaker: 10k nested #ifs' '
	test_expect_code 1 sh -c "ulimit -t 20; git undertaker --no-notes nest^!" >out 2>err &&
	test_must_be_empty err &&
	# each inner #if CONFIG_A inside #if CONFIG_A always holds
	test $(grep -c "undead block" out) = 9999 &&
	grep "^nest.c:10000: undead block B9999 (code, global): #if CONFIG_A$" out
'

test_expect_success 'undertaker: an #elif chain of 10k arms' '
	test_expect_code 1 sh -c "ulimit -t 20; git undertaker --no-notes elif^!" >out 2>err &&
	test_must_be_empty err &&
	# the first #elif CONFIG_B may hold, every later one repeats it
	test $(grep -c "dead block" out) = 9999 &&
	grep "^elif.c:20001: dead block B10000 (code, global): #elif CONFIG_B$" out
'

test_expect_success 'undertaker: notes of the two commits, read back alike' '
	test_expect_code 1 sh -c "ulimit -t 40; git undertaker base..elif" >first 2>err &&
	test $(grep -c "block" first) = 19998 &&
	git notes --ref=undertaker show elif >note &&
	test_expect_code 1 sh -c "ulimit -t 20; git undertaker base..elif" >again 2>err &&
	test_cmp first again
'

test_expect_success 'vampyr: the same two shapes' '
	for c in nest elif
	do
		sh -c "ulimit -t 20; git vampyr --commit $c" >out 2>err || return 1
	done
'

test_expect_success 'undertaker: 6,000 #elif arms each naming a missing symbol, an #ifdef inside each' '
	git checkout -q base &&
	perl -e "print qq(#if CONFIG_A\nint a;\n); for (1..6000) { print qq(#elif defined(CONFIG_U\$_)\n#ifdef CONFIG_B\nint b\$_;\n#endif\n) } print qq(#endif\n)" >arms.c &&
	git add arms.c && test_tick && git commit -q -m arms && git tag arms &&
	# 30 s of CPU before: a solve per arm, each over a conjunction as long as the chain
	test_expect_code 1 sh -c "ulimit -t 20; git undertaker --no-notes arms^!" >out 2>err &&
	test_must_be_empty err &&
	test $(grep -c "dead block" out) = 12000 &&
	grep "^arms.c:23999: dead block B11999 (missing CONFIG_U6000, global): #elif defined(CONFIG_U6000)$" out &&
	grep "^arms.c:24000: dead block B12000 (missing, global): #ifdef CONFIG_B$" out
'

test_expect_success 'undertaker: 6,000 #elif arms over C names, an #ifdef and #else inside each' '
	git checkout -q base &&
	perl -e "print qq(#if X0\nint a;\n); for (1..6000) { print qq(#elif X\$_ || Y\$_\n#ifdef CONFIG_B\nint b\$_;\n#else\nint c;\n#endif\n) } print qq(#endif\n)" >free.c &&
	git add free.c && test_tick && git commit -q -m free && git tag free &&
	# 130 s of CPU before: each block took a solve
	sh -c "ulimit -t 20; git undertaker --no-notes free^!" >out 2>err &&
	test_must_be_empty err &&
	test_must_be_empty out
'

test_expect_success 'undertaker: 8,000 nested #ifs each naming a missing symbol' '
	git checkout -q base &&
	perl -e "print qq(#if CONFIG_A && CONFIG_UNDEF\$_\n) for 1..8000; print qq(int x;\n), qq(#endif\n) x 8000" >deep.c &&
	git add deep.c && test_tick && git commit -q -m deep && git tag deep &&
	# 3.9 s of CPU before: the missing names set off in a conjunction per block
	test_expect_code 1 sh -c "ulimit -t 20; git undertaker --no-notes deep^!" >out 2>err &&
	test_must_be_empty err &&
	test $(grep -c "dead block" out) = 8000 &&
	grep "^deep.c:8000: dead block B7999 (missing CONFIG_UNDEF8000, global): #if CONFIG_A && CONFIG_UNDEF8000$" out
'

# The issue's two shapes at three times their size, under a wall-clock cap
# that main cannot meet: 24,000 nested #ifs took 35 s there (the 8,000 of
# the test above 2.5 s), 18,000 #elif arms over two minutes (6,000: 20 s).
# Now 0.4 s and 0.9 s (1.8 s and 3.8 s under ASan): each query evaluates
# only its own nodes, the shared parents and earlier arms being kept from
# the queries before (logic_bits) or taken as they hold (logic_extend).
test_expect_success 'undertaker: 24,000 nested #ifs each naming a missing symbol, within 20 s' '
	git checkout -q base &&
	perl -e "print qq(#if CONFIG_A && CONFIG_UNDEF\$_\n) for 1..24000; print qq(int x;\n), qq(#endif\n) x 24000" >deep3.c &&
	git add deep3.c && test_tick && git commit -q -m deep3 && git tag deep3 &&
	test_expect_code 1 timeout 20 git undertaker --no-notes deep3^! >out 2>err &&
	test_must_be_empty err &&
	test $(grep -c "dead block" out) = 24000 &&
	grep "^deep3.c:24000: dead block B23999 (missing CONFIG_UNDEF24000, global): #if CONFIG_A && CONFIG_UNDEF24000$" out
'

test_expect_success 'undertaker: 18,000 #elif arms each naming a missing symbol, an #ifdef inside each, within 20 s' '
	git checkout -q base &&
	perl -e "print qq(#if CONFIG_A\nint a;\n); for (1..18000) { print qq(#elif defined(CONFIG_U\$_)\n#ifdef CONFIG_B\nint b\$_;\n#endif\n) } print qq(#endif\n)" >arms3.c &&
	git add arms3.c && test_tick && git commit -q -m arms3 && git tag arms3 &&
	test_expect_code 1 timeout 20 git undertaker --no-notes arms3^! >out 2>err &&
	test_must_be_empty err &&
	test $(grep -c "dead block" out) = 36000 &&
	grep "^arms3.c:71999: dead block B35999 (missing CONFIG_U18000, global): #elif defined(CONFIG_U18000)$" out &&
	grep "^arms3.c:72000: dead block B36000 (missing, global): #ifdef CONFIG_B$" out
'

test_expect_success 'undertaker: one #if naming 80k undefined names: linear, 64 names and 512 bytes shown' '
	perl -e "print qq(#if defined(CONFIG_U1)); print qq( || defined(CONFIG_U\$_)) for 2..80000; print qq(\nint u;\n#endif\n)" >many.c &&
	git add many.c && test_tick && git commit -q -m many && git tag many &&
	test_expect_code 1 sh -c "ulimit -t 5; git undertaker many^!" >out 2>err &&
	grep "^git undertaker: error: many.c:1: #if expression too long$" err &&
	grep "^many.c:1: undefined block B0 (missing CONFIG_U1 CONFIG_U2 .* CONFIG_U64, global): #if defined(CONFIG_U1) || " out >line &&
	test $(wc -l <line) = 1 &&
	! grep CONFIG_U65 line &&
	test $(wc -c <line) -lt 2000 &&
	grep "\.\.\.$" line &&
	git notes --ref=undertaker show many >note &&
	test $(wc -c <note) -lt 10000 &&
	test_expect_code 1 sh -c "ulimit -t 5; git undertaker --explain --no-notes many^!" >explained 2>err &&
	test $(wc -l <explained) -lt 200
'

test_done
