#!/bin/sh
test_description='kbuild: a variable appended to itself, values that double at each line'
. ./test-lib.sh

test_expect_success 'x += $(x) on a simple variable reads x as it was (fuzz: a hang)' '
	echo "obj-y += d/" >Kbuild &&
	write_file d/Makefile <<-\EOF &&
	objs := a.o
	objs += $(objs) b.o
	obj-y += $(objs)
	EOF
	touch d/a.c d/b.c &&
	sh -c "ulimit -t 20; test-kbuild ." >out 2>err &&
	test_must_be_empty err &&
	printf "d/a.c\ttrue\nd/b.c\ttrue\n" >expect &&
	test_cmp expect out
'

test_expect_success 'a value doubling at each of 40 lines: an error with path:line, the rest unknown' '
	mkdir e &&
	echo "obj-y += e/" >Kbuild &&
	{
		echo "x := a.o" &&
		for i in $(test_seq 1 40)
		do
			echo "x := \$(x) \$(x)" || return 1
		done &&
		echo "obj-y += \$(x) b.o"
	} >e/Makefile &&
	touch e/a.c e/b.c &&
	sh -c "ulimit -t 20; test-kbuild ." >out 2>err &&
	grep "^test-kbuild: error: e/Makefile:[0-9]*: variables expand to more than 16 MiB; the rest is unknown$" err &&
	test $(wc -l <err) = 1 &&
	grep "^e/b.c	" out
'

test_done
