#!/bin/sh
test_description='git undertaker: satisfying assignments kept between runs'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup' '
	write_foo_bar_kconfig <<-\EOF &&
	config ALWAYS
		def_bool y
	EOF
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_BAR
	int bar;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base &&
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_BAR
	int bar;
	#endif
	#ifdef CONFIG_FOO
	int foo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m change
'

test_expect_success 'the first run solves and keeps what it found' '
	UNDERTAKER_STATS=1 git undertaker --no-notes HEAD 2>err &&
	grep "^model: 2 solver calls, 0 answered by samples, 2 questions, 0 cached, 0 unsatisfiable; " err &&
	ls .git/undertaker/samples >files &&
	test_line_count = 1 files
'

test_expect_success 'the next run answers from the kept assignments' '
	UNDERTAKER_STATS=1 git undertaker --no-notes HEAD 2>err &&
	grep "^model: 0 solver calls, 2 answered by samples, " err
'

test_expect_success 'an assignment that is no model of the Kconfig is not used' '
	f=.git/undertaker/samples/$(ls .git/undertaker/samples) &&
	# Every bit clear: ALWAYS off, which no configuration has.
	head -n 1 "$f" >header &&
	size=$(($(wc -c <"$f") - $(wc -c <header))) &&
	{ cat header && head -c $size /dev/zero; } >"$f.new" &&
	mv "$f.new" "$f" &&
	UNDERTAKER_STATS=1 git undertaker --no-notes HEAD 2>err &&
	grep "^model: 2 solver calls, 0 answered by samples, " err
'

test_expect_success 'a damaged file is ignored' '
	f=.git/undertaker/samples/$(ls .git/undertaker/samples) &&
	echo garbage >"$f" &&
	UNDERTAKER_STATS=1 git undertaker --no-notes HEAD 2>err &&
	grep "^model: 2 solver calls, 0 answered by samples, " err
'

test_expect_success 'a cache that cannot be written only costs time' '
	rm -rf .git/undertaker &&
	echo "not a directory" >.git/undertaker &&
	test_when_finished "rm -f .git/undertaker" &&
	UNDERTAKER_STATS=1 git undertaker --no-notes HEAD >out 2>err &&
	test_must_be_empty out &&
	grep "^model: 2 solver calls, 0 answered by samples, " err &&
	! grep -i "error\|warning" err &&
	test -f .git/undertaker
'

test_expect_success 'the pool off (UNDERTAKER_POOL=0): the same defects, every question solved' '
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_BAR
	int bar;
	#endif
	#if defined(CONFIG_BAR) && !defined(CONFIG_FOO)
	int dead;
	#endif
	#ifdef CONFIG_FOO
	#ifdef CONFIG_ALWAYS
	int undead;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m defects &&
	test_expect_code 1 env UNDERTAKER_STATS=1 git undertaker --no-notes --format=json HEAD >on 2>err-on &&
	test_expect_code 1 env UNDERTAKER_STATS=1 git undertaker --no-notes --format=json HEAD >on2 2>err-on2 &&
	test_expect_code 1 env UNDERTAKER_STATS=1 UNDERTAKER_POOL=0 git undertaker --no-notes --format=json HEAD >off 2>err-off &&
	grep "\"kind\": *\"dead\"" on &&
	grep "\"kind\": *\"undead\"" on &&
	test_cmp on off &&
	test_cmp on on2 &&
	# Refutations need the solver; the satisfiable questions the kept samples answer.
	grep "^model: 2 solver calls, 2 answered by samples, 6 questions, 2 cached, 2 unsatisfiable; " err-on2 &&
	grep "^model: 4 solver calls, 0 answered by samples, 6 questions, 2 cached, 2 unsatisfiable; .* 0 samples, " err-off
'

test_done
