#!/bin/sh
test_description='cpp: the lines the block tree keeps are those unifdef keeps

For random assignments of every symbol of generated files (and of a sample
of Linux sources when a tree is at $UT_LINUX_SRC), the lines kept by
evaluating each block'"'"'s presence condition equal those of unifdef -k -b.
'
. ./test-lib.sh

SYMS="CONFIG_A CONFIG_B CONFIG_C CONFIG_D CONFIG_E CONFIG_F CONFIG_G CONFIG_H"

# compare <file> <assignments file>: every line of options, both tools agree.
compare () {
	while read -r args; do
		# unifdef exits 0 or 1 with -x2 only on errors (2): refuse those.
		unifdef -k -b -x2 $args "$1" >expect.out 2>unifdef.err &&
		test_must_be_empty unifdef.err &&
		test-cpp keep "$1" $args >actual.out &&
		if ! cmp -s expect.out actual.out; then
			echo "differs: $1 $args"
			diff -u expect.out actual.out | head -20
			return 1
		fi || return 1
	done <"$2"
}

test_expect_success UNIFDEF 'a hand-written driver-like file' '
	write_file drv.c <<-\EOF &&
	/* SPDX: an example */
	#include <linux/module.h>
	#ifndef CONFIG_A
	# define A_OFF 1
	#endif

	#if defined(CONFIG_B) && !defined(CONFIG_C)
	static int b_only; /* #endif in a comment */
	#elif defined CONFIG_C || CONFIG_D
	static const char *s = "#else";
	#  ifdef CONFIG_E
	static int e;
	#  else
	static int not_e; // #if 0
	#  endif
	#else
	static char q = '"'"'#'"'"';
	#endif /* CONFIG_B */

	#if CONFIG_F == 1 && (CONFIG_A > 0 || !CONFIG_G)
	int f(void)
	{
	#if 0
		dead();
	#elif 1 && CONFIG_H
		h();
	#endif
		return 0;
	}
	#endif
	EOF
	test-cpp assign 1 64 $SYMS >assign &&
	compare drv.c assign
'

test_expect_success UNIFDEF 'generated files, random assignments' '
	for seed in $(seq 1 30); do
		test-cpp gen $seed >gen$seed.c &&
		test-cpp assign $seed 8 $SYMS >assign$seed &&
		compare gen$seed.c assign$seed || return 1
	done
'

test_expect_success UNIFDEF 'the generator covers what it should' '
	cat gen*.c >all.c &&
	for form in "^#ifdef" "^#ifndef" "^#if defined" "#[ 	]*elif" "#[ 	]*else" \
		"^ #" "^#  *if" "/\* #if" "\"#if 0 /\* \"" "^// #else" " \\\\\$"; do
		grep -q "$form" all.c || { echo "missing: $form"; return 1; }
	done &&
	test-cpp blocks gen1.c >blocks &&
	test $(wc -l <blocks) -ge 10
'

: "${UT_LINUX_SRC:=/work/linux-6.1}"
test -f "$UT_LINUX_SRC/Kbuild" && test_set_prereq LINUX_SRC

test_expect_success UNIFDEF,LINUX_SRC 'a sample of Linux sources, random assignments' '
	(cd "$UT_LINUX_SRC" && find include kernel mm drivers/base -name "*.[ch]") | sort |
		awk "NR % 80 == 0" >sample &&
	test $(wc -l <sample) -gt 10 &&
	n=0 &&
	while read -r f; do
		src="$UT_LINUX_SRC/$f" &&
		# unifdef leaves multi-line #if lines alone and reads IS_ENABLED(X)
		# as the value of IS_ENABLED: files with those are not comparable.
		if grep -Eq "^[[:space:]]*#[[:space:]]*(el)?if.*\\\\\$" "$src" ||
		   grep -E "^[[:space:]]*#[[:space:]]*(el)?if" "$src" |
			sed "s/defined *(/D/g" | grep -q "[A-Za-z0-9_] *("; then
			continue
		fi &&
		syms=$(unifdef -s "$src") &&
		test -n "$syms" || continue
		test-cpp assign $n 3 $syms >assign &&
		compare "$src" assign &&
		n=$((n + 1)) || return 1
	done <sample &&
	echo "compared $n files" &&
	test $n -gt 5
'

test_done
