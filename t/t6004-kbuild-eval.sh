#!/bin/sh
test_description='kbuild: evaluating conditions under a .config (y, m, n, free variables)'
. ./test-lib.sh

test_expect_success 'setup' '
	echo "obj-y += d/" >Kbuild &&
	write_file d/Makefile <<-\EOF &&
	obj-$(CONFIG_Y) += y.o
	obj-$(CONFIG_M) += m.o
	obj-$(CONFIG_N) += n.o
	ifeq ($(CONFIG_M),y)
	obj-y += m_builtin.o
	endif
	ifneq ($(CONFIG_N),)
	obj-y += n_set.o
	endif
	obj-$(FREE) += free.o
	obj-$(CONFIG_Y) += y_or_free.o
	ifdef FREE_TOO
	obj-y += y_or_free.o
	endif
	obj-$(CONFIG_STR) += str.o
	EOF
	touch d/y.c d/m.c d/n.c d/m_builtin.c d/n_set.c d/free.c d/y_or_free.c d/str.c &&
	write_file .config <<-\EOF
	CONFIG_Y=y
	CONFIG_M=m
	# CONFIG_N is not set
	CONFIG_STR="text"
	EOF
'

test_expect_success 'y, m and unset symbols; free variables are unknown (?) unless decided' '
	test-kbuild --eval=.config . >out &&
	cat >expect <<-\EOF &&
	d/free.c	?
	d/m.c	y
	d/m_builtin.c	n
	d/n.c	n
	d/n_set.c	n
	d/str.c	y
	d/y.c	y
	d/y_or_free.c	y
	EOF
	test_cmp expect out
'

test_done
