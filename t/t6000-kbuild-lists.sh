#!/bin/sh
test_description='kbuild: object lists, lib-, composite objects, unlisted and host files'
. ./test-lib.sh

# The root of every tree here is a kbuild directory (a Kbuild file), as in Linux 6.x.
test_expect_success 'obj-y, obj-m and obj-$(CONFIG_X)' '
	mkdir t1 && (cd t1 &&
	echo "obj-y += d/" >Kbuild &&
	write_file d/Makefile <<-\EOF &&
	obj-y += a.o
	obj-m += b.o
	obj-$(CONFIG_C) += c.o asm.o
	obj-$(CONFIG_D)	+= d.o # a comment
	# obj-y += never.o
	EOF
	touch d/a.c d/b.c d/c.c d/asm.S d/d.c d/never.c) &&
	test-kbuild t1 >out &&
	cat >expect <<-\EOF &&
	d/a.c	true
	d/asm.S	CONFIG_C
	d/b.c	true
	d/c.c	CONFIG_C
	d/d.c	CONFIG_D
	d/never.c	false
	EOF
	test_cmp expect out
'

test_expect_success 'built-in and module parts of a condition' '
	test-kbuild --file=d/c.c t1 >out &&
	cat >expect <<-\EOF &&
	cond	CONFIG_C
	builtin	CONFIG_C=y
	module	CONFIG_C=m
	kind	object
	EOF
	test_cmp expect out &&
	test-kbuild --file=d/b.c t1 >out &&
	grep "^builtin	false" out &&
	grep "^module	true" out
'

test_expect_success 'an object in obj-y is not also a module' '
	mkdir t2 && (cd t2 &&
	echo "obj-y += d/" >Kbuild &&
	write_file d/Makefile <<-\EOF &&
	obj-$(CONFIG_A) += a.o
	obj-$(CONFIG_B) += a.o
	EOF
	touch d/a.c) &&
	test-kbuild --file=d/a.c t2 >out &&
	grep "^cond	CONFIG_A || CONFIG_B$" out &&
	grep "^builtin	CONFIG_A=y || CONFIG_B=y$" out &&
	grep "^module	" out >module &&
	! grep "module	false" module
'

test_expect_success 'lib-y and lib-$(CONFIG_X)' '
	mkdir t3 && (cd t3 &&
	echo "obj-y += lib/" >Kbuild &&
	write_file lib/Makefile <<-\EOF &&
	lib-y := l1.o
	lib-$(CONFIG_L) += l2.o
	lib-m += l3.o
	EOF
	touch lib/l1.c lib/l2.c lib/l3.c) &&
	test-kbuild t3 >out &&
	cat >expect <<-\EOF &&
	lib/l1.c	true
	lib/l2.c	CONFIG_L
	lib/l3.c	true
	EOF
	test_cmp expect out
'

test_expect_success 'composite objects: foo-y, foo-$(CONFIG_X), foo-objs, foo-m' '
	mkdir t4 && (cd t4 &&
	echo "obj-y += d/" >Kbuild &&
	write_file d/Makefile <<-\EOF &&
	obj-$(CONFIG_FOO) += foo.o
	foo-y := f1.o f2.o
	foo-$(CONFIG_G) += g.o
	foo-m += onlymod.o
	obj-y += bar.o
	bar-objs := b1.o b2.o
	obj-$(CONFIG_BAZ) += baz.o
	baz-$(CONFIG_Q) += q.o
	EOF
	touch d/foo.c d/f1.c d/f2.c d/g.c d/onlymod.c d/bar.c d/b1.c d/b2.c d/baz.c d/q.c) &&
	test-kbuild t4 >out &&
	cat >expect <<-\EOF &&
	d/b1.c	true
	d/b2.c	true
	d/bar.c	false
	d/baz.c	CONFIG_BAZ=y && CONFIG_Q=m
	d/f1.c	CONFIG_FOO
	d/f2.c	CONFIG_FOO
	d/foo.c	false
	d/g.c	CONFIG_FOO=y && CONFIG_G=y || CONFIG_FOO=m && CONFIG_G
	d/onlymod.c	CONFIG_FOO=m
	d/q.c	CONFIG_BAZ=y && CONFIG_Q=y || CONFIG_BAZ=m && CONFIG_Q
	EOF
	test_cmp expect out
'

test_expect_success 'a part compiled only as a module' '
	test-kbuild --file=d/onlymod.c t4 >out &&
	grep "^builtin	false$" out &&
	grep "^module	CONFIG_FOO=m$" out
'

test_expect_success 'unlisted and host-program sources are not compiled by kbuild' '
	mkdir t5 && (cd t5 &&
	echo "obj-y += d/" >Kbuild &&
	write_file d/Makefile <<-\EOF &&
	obj-y += main.o
	hostprogs := gen mk
	mk-objs := mk1.o mk2.o
	always-y := gen
	EOF
	touch d/main.c d/included.c d/gen.c d/mk1.c d/mk2.c) &&
	test-kbuild --kind t5 >out &&
	cat >expect <<-\EOF &&
	d/gen.c	false	host
	d/included.c	false	unlisted
	d/main.c	true	object
	d/mk1.c	false	host
	d/mk2.c	false	host
	EOF
	test_cmp expect out
'

test_expect_success 'a directory nobody descends into is never compiled' '
	mkdir -p t5/orphan &&
	echo "obj-y += o.o" >t5/orphan/Makefile &&
	touch t5/orphan/o.c &&
	test-kbuild t5 >out &&
	grep "^orphan/o.c	false$" out
'

test_done
