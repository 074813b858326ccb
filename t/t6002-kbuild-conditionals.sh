#!/bin/sh
test_description='kbuild: ifdef/ifeq/ifneq nesting, variables, make functions, unknowns become free'
. ./test-lib.sh

# tree <dir>: a root Kbuild descending into d/, whose Makefile comes from stdin
tree () {
	mkdir "$1" &&
	echo "obj-y += d/" >"$1/Kbuild" &&
	write_file "$1/d/Makefile"
}

test_expect_success 'ifdef, ifndef, else, nesting' '
	tree t1 <<-\EOF &&
	ifdef CONFIG_A
	  obj-y += a.o
	  ifndef CONFIG_B
	    obj-y += a_nb.o
	  else
	    obj-y += a_b.o
	  endif
	else
	  obj-y += na.o
	endif
	EOF
	touch t1/d/a.c t1/d/a_nb.c t1/d/a_b.c t1/d/na.c &&
	test-kbuild t1 >out &&
	cat >expect <<-\EOF &&
	d/a.c	CONFIG_A
	d/a_b.c	CONFIG_A && CONFIG_B
	d/a_nb.c	CONFIG_A && !CONFIG_B
	d/na.c	!CONFIG_A
	EOF
	test_cmp expect out
'

test_expect_success 'ifeq/ifneq on CONFIG values, else ifeq chains, quoted forms' '
	tree t2 <<-\EOF &&
	ifeq ($(CONFIG_A),y)
	obj-y += ay.o
	else ifeq ($(CONFIG_A),m)
	obj-y += am.o
	else
	obj-y += an.o
	endif
	ifneq ($(CONFIG_B),)
	obj-y += b.o
	endif
	ifeq "$(CONFIG_C)" "y"
	obj-y += c.o
	endif
	ifneq ($(CONFIG_D)$(CONFIG_E),)
	obj-y += de.o
	endif
	ifeq ($(CONFIG_F), y)
	obj-y += f.o
	endif
	EOF
	touch t2/d/ay.c t2/d/am.c t2/d/an.c t2/d/b.c t2/d/c.c t2/d/de.c t2/d/f.c &&
	test-kbuild t2 >out &&
	cat >expect <<-\EOF &&
	d/am.c	CONFIG_A=m
	d/an.c	!CONFIG_A
	d/ay.c	CONFIG_A=y
	d/b.c	CONFIG_B
	d/c.c	CONFIG_C=y
	d/de.c	CONFIG_D || CONFIG_E
	d/f.c	CONFIG_F=y
	EOF
	test_cmp expect out
'

test_expect_success 'variables: :=, +=, ?= and references in lists' '
	tree t3 <<-\EOF &&
	common := c1.o c2.o
	obj-y += $(common)
	extra-objs-$(CONFIG_X) := x.o
	obj-y += $(extra-objs-y)
	maybe ?= q.o
	maybe ?= r.o
	obj-y += $(maybe)
	EOF
	touch t3/d/c1.c t3/d/c2.c t3/d/x.c t3/d/q.c t3/d/r.c &&
	test-kbuild t3 >out &&
	cat >expect <<-\EOF &&
	d/c1.c	true
	d/c2.c	true
	d/q.c	true
	d/r.c	false
	d/x.c	CONFIG_X=y
	EOF
	test_cmp expect out
'

test_expect_success 'a recursive (=) variable is expanded where it is used' '
	tree t3b <<-\EOF &&
	later = $(defined_later)
	foo-y += $(later)
	obj-y += foo.o
	defined_later := l.o
	EOF
	touch t3b/d/l.c t3b/d/foo.c &&
	test-kbuild t3b >out &&
	cat >expect <<-\EOF &&
	d/foo.c	false
	d/l.c	true
	EOF
	test_cmp expect out
'

test_expect_success 'a variable set differently in both branches (like BITS)' '
	tree t4 <<-\EOF &&
	ifeq ($(CONFIG_X86_32),y)
	BITS := 32
	else
	BITS := 64
	endif
	obj-y += head_$(BITS).o
	EOF
	touch t4/d/head_32.S t4/d/head_64.S &&
	test-kbuild t4 >out &&
	cat >expect <<-\EOF &&
	d/head_32.S	CONFIG_X86_32=y
	d/head_64.S	!CONFIG_X86_32=y
	EOF
	test_cmp expect out
'

test_expect_success 'line continuations and comments' '
	tree t5 <<-\EOF &&
	obj-$(CONFIG_A) += one.o \
			   two.o \
	                   three.o # four.o
	# obj-y += five.o \
	obj-y += six.o
	obj-y += seven.o
	EOF
	touch t5/d/one.c t5/d/two.c t5/d/three.c t5/d/four.c t5/d/five.c t5/d/six.c t5/d/seven.c &&
	test-kbuild t5 >out &&
	cat >expect <<-\EOF &&
	d/five.c	false
	d/four.c	false
	d/one.c	CONFIG_A
	d/seven.c	true
	d/six.c	false
	d/three.c	CONFIG_A
	d/two.c	CONFIG_A
	EOF
	test_cmp expect out
'

test_expect_success 'make functions: addprefix, patsubst, subst, filter, foreach, substitution refs' '
	tree t6 <<-\EOF &&
	obj-y += $(addprefix p_, a.o b.o)
	objs := c.c d.c
	obj-y += $(patsubst %.c,%.o,$(objs))
	obj-y += $(objs:.c=_x.o)
	obj-$(subst m,y,$(CONFIG_H)) += h.o
	obj-y += $(filter-out skip.o, e.o skip.o)
	obj-y += $(foreach n,1 2,f$(n).o)
	EOF
	touch t6/d/p_a.c t6/d/p_b.c t6/d/c.c t6/d/d.c t6/d/c_x.c t6/d/d_x.c t6/d/h.c t6/d/e.c \
		t6/d/skip.c t6/d/f1.c t6/d/f2.c &&
	test-kbuild t6 >out &&
	cat >expect <<-\EOF &&
	d/c.c	true
	d/c_x.c	true
	d/d.c	true
	d/d_x.c	true
	d/e.c	true
	d/f1.c	true
	d/f2.c	true
	d/h.c	CONFIG_H=y
	d/p_a.c	true
	d/p_b.c	true
	d/skip.c	false
	EOF
	sed "s/^d\/h.c	.*/d\/h.c	CONFIG_H/" expect >expect2 &&
	test_cmp expect2 out &&
	test-kbuild --file=d/h.c t6 >out &&
	grep "^builtin	CONFIG_H$" out
'

test_expect_success 'unknown variables and functions become free variables, never a guess' '
	tree t7 <<-\EOF &&
	obj-y += known.o
	obj-y += $(SOMETHING_FROM_OUTSIDE).o
	obj-$(SOME_FLAG) += flagged.o
	ifeq ($(shell uname),Linux)
	obj-y += shell.o
	else
	obj-y += noshell.o
	endif
	ifdef SOME_DEFINE
	obj-y += defined.o
	endif
	EOF
	touch t7/d/known.c t7/d/flagged.c t7/d/shell.c t7/d/noshell.c t7/d/defined.c &&
	test-kbuild t7 >out &&
	cat >expect <<-\EOF &&
	d/defined.c	[d/*.o] || [ifdef SOME_DEFINE]
	d/flagged.c	[d/*.o] || [d/Makefile:3: obj-$(SOME_FLAG)]
	d/known.c	true
	d/noshell.c	[d/*.o] || ![ifeq ($(shell uname),Linux)]
	d/shell.c	[d/*.o] || [ifeq ($(shell uname),Linux)]
	EOF
	test_cmp expect out
'

test_expect_success 'an unknown include makes every file of the directory possibly compiled' '
	tree t8 <<-\EOF &&
	include $(SOMEWHERE)/rules.mk
	obj-$(CONFIG_A) += a.o
	EOF
	touch t8/d/a.c t8/d/b.c &&
	test-kbuild t8 >out &&
	grep "^d/a.c	CONFIG_A || \[" out &&
	grep "^d/b.c	\[d/Makefile:1: include" out
'

test_expect_success 'a known include is read' '
	tree t9 <<-\EOF &&
	include $(srctree)/$(src)/common.mk
	obj-y += $(common-objs)
	EOF
	echo "common-objs := inc.o" >t9/d/common.mk &&
	touch t9/d/inc.c &&
	test-kbuild t9 >out &&
	echo "d/inc.c	true" >expect &&
	test_cmp expect out
'

test_expect_success 'recipes, define blocks and $(eval) are read as make does' '
	printf "%s\n" "obj-y += real.o" "\$(obj)/gen.c: \$(src)/gen.sh" \
		"	obj-y += recipe.o" "define some_macro" "obj-y += defined.o" "endef" \
		"\$(foreach o,ev1 ev2,\$(eval obj-\$(CONFIG_EV) += \$(o).o))" \
		"\$(eval \$(UNKNOWN_TEXT))" | tree t10 &&
	grep "^	obj-y += recipe.o" t10/d/Makefile &&
	touch t10/d/real.c t10/d/recipe.c t10/d/defined.c t10/d/ev1.c t10/d/ev2.c &&
	test-kbuild t10 >out &&
	cat >expect <<-\EOF &&
	d/defined.c	[d/Makefile:8: $(eval)]
	d/ev1.c	CONFIG_EV || [d/Makefile:8: $(eval)]
	d/ev2.c	CONFIG_EV || [d/Makefile:8: $(eval)]
	d/real.c	true
	d/recipe.c	[d/Makefile:8: $(eval)]
	EOF
	test_cmp expect out
'

test_done
