#!/bin/sh
test_description='cpp: the block tree of conditional directives, as comments, literals and continuations allow'
. ./test-lib.sh

# test_line_count <op> <n> <file>
test_line_count () {
	test "$(wc -l <"$3")" "$1" "$2"
}

test_expect_success 'every conditional directive form opens or closes a block' '
	write_file forms.c <<-\EOF &&
	#if CONFIG_A
	#elif CONFIG_B
	#elifdef CONFIG_C
	#elifndef CONFIG_D
	#else
	#endif
	#ifdef CONFIG_E
	#endif
	#ifndef CONFIG_F
	#endif
	EOF
	test-cpp blocks forms.c >out &&
	cat >expect <<-\EOF &&
	B0 1-2 parent=B00 kind=if pc=CONFIG_A directive=#if CONFIG_A
	B1 2-3 parent=B00 kind=elif pc=CONFIG_B && !CONFIG_A directive=#elif CONFIG_B
	B2 3-4 parent=B00 kind=elifdef pc=defined(CONFIG_C) && !CONFIG_A && !CONFIG_B directive=#elifdef CONFIG_C
	B3 4-5 parent=B00 kind=elifndef pc=!defined(CONFIG_D) && !CONFIG_A && !CONFIG_B && !defined(CONFIG_C) directive=#elifndef CONFIG_D
	B4 5-6 parent=B00 kind=else pc=!CONFIG_A && !CONFIG_B && !defined(CONFIG_C) && defined(CONFIG_D) directive=#else
	B5 7-8 parent=B00 kind=ifdef pc=defined(CONFIG_E) directive=#ifdef CONFIG_E
	B6 9-10 parent=B00 kind=ifndef pc=!defined(CONFIG_F) directive=#ifndef CONFIG_F
	EOF
	test_cmp expect out
'

test_expect_success 'blanks before and after #, comments before #, continuations' '
	printf "  #  if   defined CONFIG_G\n\t#\tendif\n" >space.c &&
	printf "/**/ # if CONFIG_H /* c */ && \\\\\n\tCONFIG_I // d\n#endif\n" >>space.c &&
	printf "#\\\\\nif CONFIG_J\n#endif\n/* a\n */ #ifdef CONFIG_K\n#endif\n" >>space.c &&
	printf "#if CONFIG_L /* a comment\n  that spans lines */ && CONFIG_M\n#endif\n" >>space.c &&
	test-cpp blocks space.c >out &&
	cat >expect <<-\EOF &&
	B0 1-2 parent=B00 kind=if pc=defined(CONFIG_G) directive=#  if   defined CONFIG_G
	B1 3-5 parent=B00 kind=if pc=CONFIG_H && CONFIG_I directive=# if CONFIG_H /* c */ && 	CONFIG_I // d
	B2 6-8 parent=B00 kind=if pc=CONFIG_J directive=#if CONFIG_J
	B3 10-11 parent=B00 kind=ifdef pc=defined(CONFIG_K) directive=#ifdef CONFIG_K
	B4 12-14 parent=B00 kind=if pc=CONFIG_L && CONFIG_M directive=#if CONFIG_L /* a comment   that spans lines */ && CONFIG_M
	EOF
	test_cmp expect out
'

test_expect_success 'comments, strings, characters and continuations hide directives' '
	write_file hide.c <<-\EOF &&
	/* #if CONFIG_A
	#endif */
	// #if CONFIG_B \
	#endif
	const char *s = "#if CONFIG_C";
	const char *t = "\
	#if CONFIG_D";
	char c = '"'"'"'"'"'; /*
	#if CONFIG_E */
	char d = '"'"'\\'"'"''"'"';
	#if CONFIG_F
	int x = 1 / 2; /* a division is no comment */
	#endif
	x = a // b
	#if CONFIG_G
	#endif
	#define S "/*"
	#if CONFIG_H
	#endif
	EOF
	test-cpp blocks hide.c >out &&
	cat >expect <<-\EOF &&
	B0 11-13 parent=B00 kind=if pc=CONFIG_F directive=#if CONFIG_F
	B1 15-16 parent=B00 kind=if pc=CONFIG_G directive=#if CONFIG_G
	B2 18-19 parent=B00 kind=if pc=CONFIG_H directive=#if CONFIG_H
	EOF
	test_cmp expect out
'

test_expect_success 'nesting and #elif chains: parents and presence conditions' '
	write_file nest.c <<-\EOF &&
	#ifdef CONFIG_A
	# ifndef CONFIG_B
	#  if defined(CONFIG_C) || CONFIG_D
	#  elif CONFIG_E
	#  else
	#   ifdef CONFIG_F
	#   endif
	#  endif
	# endif
	#else
	# if CONFIG_G
	# endif
	#endif
	EOF
	test-cpp blocks nest.c >out &&
	cat >expect <<-\EOF &&
	B0 1-10 parent=B00 kind=ifdef pc=defined(CONFIG_A) directive=#ifdef CONFIG_A
	B1 2-9 parent=B0 kind=ifndef pc=defined(CONFIG_A) && !defined(CONFIG_B) directive=# ifndef CONFIG_B
	B2 3-4 parent=B1 kind=if pc=defined(CONFIG_A) && !defined(CONFIG_B) && (defined(CONFIG_C) || CONFIG_D) directive=#  if defined(CONFIG_C) || CONFIG_D
	B3 4-5 parent=B1 kind=elif pc=defined(CONFIG_A) && !defined(CONFIG_B) && CONFIG_E && !(defined(CONFIG_C) || CONFIG_D) directive=#  elif CONFIG_E
	B4 5-8 parent=B1 kind=else pc=defined(CONFIG_A) && !defined(CONFIG_B) && !(defined(CONFIG_C) || CONFIG_D) && !CONFIG_E directive=#  else
	B5 6-7 parent=B4 kind=ifdef pc=defined(CONFIG_A) && !defined(CONFIG_B) && !(defined(CONFIG_C) || CONFIG_D) && !CONFIG_E && defined(CONFIG_F) directive=#   ifdef CONFIG_F
	B6 10-13 parent=B00 kind=else pc=!defined(CONFIG_A) directive=#else
	B7 11-12 parent=B6 kind=if pc=!defined(CONFIG_A) && CONFIG_G directive=# if CONFIG_G
	EOF
	test_cmp expect out
'

test_expect_success 'each line maps to its innermost block' '
	test-cpp at nest.c >out &&
	cat >expect <<-\EOF &&
	1 B0
	2 B1
	3 B2
	4 B3
	5 B4
	6 B5
	7 B5
	8 B4
	9 B1
	10 B6
	11 B7
	12 B7
	13 B6
	EOF
	test_cmp expect out
'

test_expect_success 'other directives and non-directive # lines are no blocks' '
	write_file other.c <<-\EOF &&
	#include <linux/if.h>
	#pragma once
	# 1 "file.c"
	#
	#error "no #if here"
	#define IF_X(x) x
	#iffy
	EOF
	test-cpp blocks other.c >out &&
	test_must_be_empty out
'

test_expect_success 'unbalanced directives are errors with path:line, the rest is kept' '
	printf "#if CONFIG_A\n#else\n#else\n#elif CONFIG_B\n#endif\n#endif\n#elif X\n#ifdef CONFIG_C\n" >err.c &&
	test_expect_code 1 test-cpp blocks err.c >out 2>err &&
	cat >expect <<-\EOF &&
	test-cpp: error: err.c:3: #else after #else
	test-cpp: error: err.c:4: #elif after #else
	test-cpp: error: err.c:6: #endif without #if
	test-cpp: error: err.c:7: #elif without #if
	test-cpp: error: err.c:8: unterminated #ifdef
	EOF
	test_cmp expect err &&
	grep "^B3 4-5 parent=B00 kind=elif" out &&
	grep "^B4 8-9 parent=B00 kind=ifdef pc=defined(CONFIG_C)" out
'

test_expect_success 'malformed expressions are errors, the block stays undecided' '
	printf "#if\n#endif\n#ifdef\n#endif\n#if (CONFIG_A\n#endif\n#if CONFIG_A CONFIG_B\n#endif\n" >bad.c &&
	test_expect_code 1 test-cpp blocks bad.c >out 2>err &&
	cat >expect <<-\EOF &&
	test-cpp: error: bad.c:1: missing expression in #if
	test-cpp: error: bad.c:3: #ifdef without a macro name
	test-cpp: error: bad.c:5: missing '"')'"' in #if
	test-cpp: error: bad.c:7: unexpected token in #if
	EOF
	test_cmp expect err &&
	grep "^B2 5-6 parent=B00 kind=if pc={(CONFIG_A} " out &&
	test_line_count = 4 out
'

test_expect_success 'absurdly deep or long expressions are errors, not crashes' '
	awk "BEGIN {
		s = \"#if \"; for (i = 0; i < 5000; i++) s = s \"(\"; s = s \"A\";
		for (i = 0; i < 5000; i++) s = s \")\"; print s; print \"#endif\";
		s = \"#if A0\"; for (i = 1; i < 20000; i++) s = s \" && A\" i; print s; print \"#endif\";
		s = \"#if A0\"; for (i = 1; i < 2000; i++) s = s \" && A\" i; print s; print \"#endif\";
	}" >deep.c &&
	test_expect_code 1 test-cpp blocks deep.c >out 2>err &&
	cat >expect <<-\EOF &&
	test-cpp: error: deep.c:1: #if nested too deeply
	test-cpp: error: deep.c:3: #if expression too long
	EOF
	test_cmp expect err &&
	test_line_count = 3 out &&
	grep "^B2 5-6 parent=B00 kind=if pc=A0 && A1 && " out
'

test_expect_success 'an unterminated comment is an error' '
	printf "#if CONFIG_A\n#endif\n/* no end\n#if CONFIG_B\n" >comment.c &&
	test_expect_code 1 test-cpp blocks comment.c >out 2>err &&
	grep "comment.c:3: unterminated comment" err &&
	test_line_count = 1 out
'

test_expect_success 'assembler: # comments are no directives, apostrophes are no literals' '
	write_file entry.S <<-\EOF &&
	# this is a comment, not a directive
	# if the carry is set, we branch (prose)
	# else we fall through
	#include <asm/asm.h>
	#ifdef CONFIG_X86_64
		movq $1, %rax	# it'"'"'s 64-bit
	#else
		movl $'"'"'a'"'"', %eax
	#endif
	@ don'"'"'t /* fooled */
	#if IS_ENABLED(CONFIG_SMP) /* can'"'"'t */
	#endif
	EOF
	test-cpp blocks --asm entry.S >out 2>err &&
	test_must_be_empty err &&
	cat >expect <<-\EOF &&
	B0 5-7 parent=B00 kind=ifdef pc=defined(CONFIG_X86_64) directive=#ifdef CONFIG_X86_64
	B1 7-9 parent=B00 kind=else pc=!defined(CONFIG_X86_64) directive=#else
	B2 11-12 parent=B00 kind=if pc=IS_ENABLED(CONFIG_SMP) directive=#if IS_ENABLED(CONFIG_SMP) /* can'"'"'t */
	EOF
	test_cmp expect out
'

test_expect_success 'CRLF line endings and a last line without newline' '
	printf "#ifdef CONFIG_A\r\nx\r\n#if CONFIG_B \\\\\r\n && CONFIG_C\r\n#endif\r\n#endif" >crlf.c &&
	test-cpp blocks crlf.c >out &&
	cat >expect <<-\EOF &&
	B0 1-6 parent=B00 kind=ifdef pc=defined(CONFIG_A) directive=#ifdef CONFIG_A
	B1 3-5 parent=B0 kind=if pc=defined(CONFIG_A) && CONFIG_B && CONFIG_C directive=#if CONFIG_B  && CONFIG_C
	EOF
	test_cmp expect out
'

test_expect_success 'a UTF-8 byte order mark before the first directive' '
	printf "\357\273\277#ifndef FOO_H\n#define FOO_H\n#endif\n" >bom.h &&
	test-cpp blocks bom.h >out &&
	echo "B0 1-3 parent=B00 kind=ifndef pc=!defined(FOO_H) directive=#ifndef FOO_H" >expect &&
	test_cmp expect out
'

test_expect_success 'random token soups: no crash, a consistent block tree' '
	for seed in 1 2 3 4 5; do
		test-cpp fuzz $seed 3000 >out 2>err &&
		echo "scanned 3000" >expect &&
		test_cmp expect out || { cat err; return 1; }
	done
'

test_expect_success 'a directive ending in a backslash at the end of the blob: nothing read past it' '
	# 4 bytes, no newline: test-cpp hands the scanner exactly these bytes,
	# so under AddressSanitizer a read past the end fails here.
	printf "#if\\\\" >trail.c &&
	test $(wc -c <trail.c) = 4 &&
	test_expect_code 1 test-cpp blocks trail.c >out 2>err &&
	cat >expect <<-\EOF &&
	test-cpp: error: trail.c:1: unexpected token in #if
	test-cpp: error: trail.c:1: unterminated #if
	EOF
	test_cmp expect err &&
	cat >expect <<-\EOF &&
	B0 1-2 parent=B00 kind=if pc={\} directive=#if\
	EOF
	test_cmp expect out &&
	printf "#ifdef A\n#endif\\\\" >trail2.c &&
	test-cpp blocks trail2.c >out &&
	echo "B0 1-2 parent=B00 kind=ifdef pc=defined(A) directive=#ifdef A" >expect &&
	test_cmp expect out
'

test_expect_success '%: is #, as gcc reads a C file (not an assembler one)' '
	printf "%%:ifdef CONFIG_A\nint a;\n%%:  elif defined(CONFIG_B)\nint b;\n%%:else\nint c;\n%%:endif\n" >digraph.c &&
	test-cpp blocks digraph.c >out &&
	cat >expect <<-\EOF &&
	B0 1-3 parent=B00 kind=ifdef pc=defined(CONFIG_A) directive=%:ifdef CONFIG_A
	B1 3-5 parent=B00 kind=elif pc=defined(CONFIG_B) && !defined(CONFIG_A) directive=%:  elif defined(CONFIG_B)
	B2 5-7 parent=B00 kind=else pc=!defined(CONFIG_A) && !defined(CONFIG_B) directive=%:else
	EOF
	test_cmp expect out &&
	if command -v gcc >/dev/null
	then
		gcc -E -P -DCONFIG_B digraph.c >gcc.out &&
		echo "int b;" >expect &&
		test_cmp expect gcc.out
	fi &&
	test-cpp blocks --asm digraph.c >out &&
	test_must_be_empty out
'

test_done
