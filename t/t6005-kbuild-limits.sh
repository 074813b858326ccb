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

test_expect_success 'a directory entered from 30,000 lines: linear, one error, its files unknown' '
	rm -rf big && mkdir -p big/d &&
	(cd big &&
	 awk "BEGIN { for (i = 1; i <= 30000; i++) printf \"obj-\$(CONFIG_F%d) += d/\n\", i }" >Kbuild &&
	 echo "obj-y += a.o" >d/Makefile &&
	 touch d/a.c &&
	 sh -c "ulimit -t 20; test-kbuild ." >out 2>err) &&
	grep "^test-kbuild: error: \.: enters directories under more than 1024 conditions; taken as unknown$" big/err &&
	test $(wc -l <big/err) = 1 &&
	grep "^d/a.c	\[(a condition of more than 1024 terms, #1)\]$" big/out
'

test_expect_success '1,000 lines: the condition whole, the same as 1,000 lines built by hand' '
	rm -rf mid && mkdir -p mid/d &&
	(cd mid &&
	 awk "BEGIN { for (i = 1; i <= 1000; i++) printf \"obj-\$(CONFIG_F%d) += d/\nobj-\$(CONFIG_G%d) += d/\n\", i, i % 7 }" >Kbuild &&
	 echo "obj-y += a.o" >d/Makefile &&
	 touch d/a.c &&
	 sh -c "ulimit -t 20; test-kbuild ." >out 2>err) &&
	test_must_be_empty mid/err &&
	tr "|" "\n" <mid/out | grep -c "CONFIG_F[0-9]*=y" >count &&
	echo 1000 >expect && test_cmp expect count &&
	tr "|" "\n" <mid/out | grep -c "CONFIG_G[0-9]*=y" >count &&
	echo 7 >expect && test_cmp expect count
'

# units <order>: 60 units, each a line or an ifeq block entering d/ under
# CONFIG_Fi=y, CONFIG_Fi=m (the two merge: CONFIG_Fi) or CONFIG_Hi!=y, in the
# order given.
units () {
	for n in $1; do
		i=$((n % 20 + 1)) &&
		case $((n % 3)) in
		0) printf "ifeq (\$(CONFIG_F$i),y)\nobj-y += d/\nendif\n" ;;
		1) printf "ifeq (\$(CONFIG_F$i),m)\nobj-y += d/\nendif\n" ;;
		2) printf "ifneq (\$(CONFIG_H$i),y)\nobj-y += d/\nendif\n" ;;
		esac || return 1
	done
}

test_expect_success 'a long condition is the same whatever the order its terms come in' '
	for order in fwd rev mix; do
		rm -rf $order && mkdir -p $order/d &&
		echo "obj-y += a.o" >$order/d/Makefile &&
		touch $order/d/a.c || return 1
	done &&
	units "$(test_seq 0 59)" >fwd/Kbuild &&
	units "$(test_seq 0 59 | sort -rn)" >rev/Kbuild &&
	units "$(test_seq 0 59 | awk "{ print (\$1 * 37) % 60 }")" >mix/Kbuild &&
	for order in fwd rev mix; do
		(cd $order && test-kbuild . >../$order.out 2>../$order.err) &&
		test_must_be_empty $order.err || return 1
	done &&
	test_cmp fwd.out rev.out &&
	test_cmp fwd.out mix.out &&
	tr "|" "\n" <fwd.out >terms &&
	test $(grep -c "CONFIG_F[0-9]* *$" terms) = 20 &&
	test $(grep -c "!CONFIG_H[0-9]*=y" terms) = 20
'

test_done
