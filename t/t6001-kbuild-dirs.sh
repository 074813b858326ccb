#!/bin/sh
test_description='kbuild: descending into subdirectories, conditions ANDed down the tree'
. ./test-lib.sh

test_expect_success 'obj-y += dir/, obj-$(CONFIG_X) += dir/, subdir-y, subdir-$(CONFIG_X)' '
	mkdir t1 && (cd t1 &&
	write_file Kbuild <<-\EOF &&
	obj-y += a/
	obj-$(CONFIG_B) += b/
	subdir-y += s
	subdir-$(CONFIG_T) += t
	EOF
	echo "obj-y += a.o" | write_file a/Makefile &&
	echo "obj-y += b.o" | write_file b/Makefile &&
	echo "obj-m += s.o" | write_file s/Makefile &&
	echo "obj-m += t.o" | write_file t/Makefile &&
	touch a/a.c b/b.c s/s.c t/t.c) &&
	test-kbuild t1 >out &&
	cat >expect <<-\EOF &&
	a/a.c	true
	b/b.c	CONFIG_B=y
	s/s.c	true
	t/t.c	CONFIG_T
	EOF
	test_cmp expect out
'

test_expect_success 'obj-y objects of a directory reached only through obj-m are not built' '
	mkdir t2 && (cd t2 &&
	echo "obj-\$(CONFIG_M) += m/" >Kbuild &&
	write_file m/Makefile <<-\EOF &&
	obj-y += builtin.o
	obj-$(CONFIG_X) += x.o
	lib-y += l.o
	EOF
	touch m/builtin.c m/x.c m/l.c) &&
	test-kbuild t2 >out &&
	cat >expect <<-\EOF &&
	m/builtin.c	CONFIG_M=y
	m/l.c	CONFIG_M
	m/x.c	CONFIG_M && CONFIG_X=m || CONFIG_M=y && CONFIG_X=y
	EOF
	test_cmp expect out
'

test_expect_success 'a directory guarded twice: obj-$(CONFIG_A) inside ifdef CONFIG_B' '
	mkdir t3 && (cd t3 &&
	write_file Kbuild <<-\EOF &&
	ifdef CONFIG_B
	obj-$(CONFIG_A) += d/
	endif
	EOF
	echo "obj-\$(CONFIG_C) += c.o" | write_file d/Makefile &&
	touch d/c.c) &&
	test-kbuild t3 >out &&
	echo "d/c.c	CONFIG_A && CONFIG_B && CONFIG_C=m || CONFIG_A=y && CONFIG_B && CONFIG_C=y" >expect &&
	test_cmp expect out
'

test_expect_success 'a directory guarded at two levels: conditions AND down the tree' '
	mkdir t4 && (cd t4 &&
	echo "obj-\$(CONFIG_A) += a/" >Kbuild &&
	echo "obj-\$(CONFIG_B) += b/" | write_file a/Makefile &&
	echo "obj-\$(CONFIG_C) += c/" | write_file a/b/Makefile &&
	echo "obj-y += deep.o" | write_file a/b/c/Makefile &&
	touch a/b/c/deep.c) &&
	test-kbuild t4 >out &&
	echo "a/b/c/deep.c	CONFIG_A=y && CONFIG_B=y && CONFIG_C=y" >expect &&
	test_cmp expect out
'

test_expect_success 'a directory listed from two places: OR of the paths' '
	mkdir t5 && (cd t5 &&
	write_file Kbuild <<-\EOF &&
	obj-$(CONFIG_P) += p/
	obj-$(CONFIG_Q) += shared/
	EOF
	echo "obj-y += ../shared/" | write_file p/Makefile &&
	echo "obj-y += s.o" | write_file shared/Makefile &&
	touch shared/s.c) &&
	test-kbuild t5 >out &&
	echo "shared/s.c	CONFIG_P=y || CONFIG_Q=y" >expect &&
	test_cmp expect out
'

test_expect_success 'objects in a subdirectory named from the parent' '
	mkdir t6 && (cd t6 &&
	echo "obj-y += d/" >Kbuild &&
	echo "obj-\$(CONFIG_X) += sub/x.o" | write_file d/Makefile &&
	mkdir -p d/sub && touch d/sub/x.c) &&
	test-kbuild t6 >out &&
	echo "d/sub/x.c	CONFIG_X" >expect &&
	test_cmp expect out
'

test_expect_success 'Kbuild is read in preference to Makefile' '
	mkdir t7 && (cd t7 &&
	echo "obj-y += d/" >Kbuild &&
	echo "obj-y += k.o" | write_file d/Kbuild) &&
	echo "obj-y += m.o" | write_file t7/d/Makefile &&
	touch t7/d/k.c t7/d/m.c &&
	test-kbuild t7 >out &&
	grep "^d/k.c	true$" out &&
	grep "^d/m.c	false$" out
'

test_done
