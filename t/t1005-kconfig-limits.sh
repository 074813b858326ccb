#!/bin/sh
test_description='kconfig: limits on expression depth and macro expansion, each an error with path:line'
. ./test-lib.sh

# Each tree: A has the hostile line, B after it must still be parsed.
# ulimit -t: before the limits, these crashed (stack) or ran for minutes.

test_expect_success 'an expression nested 100k parentheses deep' '
	mkdir paren &&
	perl -e "print qq(config A\n\tbool \"a\"\n\tdepends on ), q[(] x 100000, q(B), q[)] x 100000, qq(\nconfig B\n\tbool \"b\"\n)" >paren/Kconfig &&
	test_expect_code 1 sh -c "ulimit -t 60; test-kconfig paren" >out 2>err &&
	cat >expect <<-\EOF &&
	test-kconfig: error: Kconfig:3: expression nested deeper than 1000 levels; the line is left out
	1 errors
	EOF
	test_cmp expect err &&
	printf "CONFIG_A bool Kconfig:1\nCONFIG_B bool Kconfig:4\n" >expect &&
	test_cmp expect out
'

test_expect_success '50k terms of FOO && FOO, and 30k !, in the model' '
	mkdir and not &&
	perl -e "print qq(config A\n\tbool \"a\"\n\tdepends on B), q( && B) x 50000, qq(\nconfig B\n\tbool \"b\"\n)" >and/Kconfig &&
	perl -e "print qq(config A\n\tbool \"a\"\n\tdepends on ), q(!) x 30000, qq(B\nconfig B\n\tbool \"b\"\n)" >not/Kconfig &&
	for t in and not
	do
		sh -c "ulimit -t 60; test-model $t sat A=y B=n" >out 2>err &&
		echo "test-model: error: Kconfig:3: expression nested deeper than 1000 levels; the line is left out" >expect &&
		test_cmp expect err &&
		echo sat >expect &&
		test_cmp expect out || return 1
	done
'

test_expect_success 'just below the limit parses' '
	mkdir below &&
	perl -e "print qq(config A\n\tbool \"a\"\n\tdepends on ), q[(] x 990, q(B), q[)] x 990, qq(\nconfig B\n\tbool \"b\"\n)" >below/Kconfig &&
	test_expect_code 1 test-model below sat A=y B=n >out &&
	grep "^unsat" out
'

test_expect_success '50k nested if blocks: one error, the deepest conditions left out' '
	mkdir ifs &&
	perl -e "print qq(if B\n) x 50000, qq(config A\n\tbool \"a\"\n), qq(endif\n) x 50000, qq(config B\n\tbool \"b\"\n)" >ifs/Kconfig &&
	test_expect_code 1 sh -c "ulimit -t 60; test-kconfig ifs" >out 2>err &&
	cat >expect <<-\EOF &&
	test-kconfig: error: Kconfig:1001: dependencies nested deeper than 1000 levels; this condition, and any other beyond the limit, is left out
	1 errors
	EOF
	test_cmp expect err &&
	grep "^CONFIG_A bool Kconfig:50001$" out &&
	test_expect_code 1 test-model ifs sat A=y B=n 2>/dev/null >out &&
	grep "^unsat" out
'

test_expect_success 'macros that double at each step: a size cap, the value unknown' '
	mkdir mac &&
	perl -e "print qq(A0 := 0123456789abcdef\n); printf(qq(A%d := \\\$(A%d)\\\$(A%d)\n), \$_, \$_ - 1, \$_ - 1) for 1..40; print qq(config A\n\tstring \"a\"\n\tdefault \"\\\$(A40)\"\nconfig B\n\tbool \"b\"\n)" >mac/Kconfig &&
	grep -c := mac/Kconfig >n && echo 41 >expect && test_cmp expect n &&
	grep "^A40 := \$(A39)\$(A39)$" mac/Kconfig &&
	test_expect_code 1 sh -c "ulimit -t 60; test-kconfig mac" >out 2>err &&
	cat >expect <<-\EOF &&
	test-kconfig: error: Kconfig:18: macro expansion longer than 1 MiB; the expansion is left unknown
	test-kconfig: error: Kconfig:37: macro expansion longer than 1 MiB; the expansion is left unknown
	2 errors
	EOF
	test_cmp expect err &&
	grep "^CONFIG_B bool Kconfig:45$" out
'

test_expect_success 'recursive macros that double: a cap on references, the value unknown' '
	mkdir rmac &&
	perl -e "print qq(A0 =\n); printf(qq(A%d = \\\$(A%d)\\\$(A%d)\n), \$_, \$_ - 1, \$_ - 1) for 1..40; print qq(config A\n\tstring \"a\"\n\tdefault \"\\\$(A40)\"\nconfig B\n\tbool \"b\"\n)" >rmac/Kconfig &&
	test_expect_code 1 sh -c "ulimit -t 60; test-kconfig --details rmac" >out 2>err &&
	cat >expect <<-\EOF &&
	test-kconfig: error: Kconfig:44: more than 1048576 macro references in one line; the expansion is left unknown
	1 errors
	EOF
	test_cmp expect err &&
	grep "^config B bool Kconfig:45$" out
'

test_expect_success 'a += that would pass 1 MiB is left out' '
	mkdir app &&
	perl -e "print qq(X := 0123456789abcdef\n); print qq(X += \\\$(X)\n) x 20; print qq(config B\n\tbool \"b\"\n)" >app/Kconfig &&
	test_expect_code 1 sh -c "ulimit -t 60; test-kconfig app" >out 2>err &&
	grep "^test-kconfig: error: Kconfig:[0-9]*: variable .X. longer than 1 MiB; this .+=. is left out$" err &&
	grep "^CONFIG_B bool Kconfig:22$" out
'

test_expect_success 'a line whose references write more than 16 MiB in all: a cap, the value unknown' '
	mkdir wrt &&
	perl -e "print qq(A0 := 0123456789abcdef\n); printf(qq(A%d := \\\$(A%d)\\\$(A%d)\n), \$_, \$_ - 1, \$_ - 1) for 1..15; print qq(config A\n\tstring \"a\"\n\tdefault \"), qq(\\\$(warning-if,n,\\\$(A15))) x 40, qq(\"\nconfig B\n\tbool \"b\"\n)" >wrt/Kconfig &&
	grep -c "warning-if,n,\$(A15))" wrt/Kconfig >n && echo 1 >expect && test_cmp expect n &&
	test_expect_code 1 sh -c "ulimit -t 60; test-kconfig wrt" >out 2>err &&
	cat >expect <<-\EOF &&
	test-kconfig: error: Kconfig:19: macro expansion writes more than 16 MiB for one line; the expansion is left unknown
	1 errors
	EOF
	test_cmp expect err &&
	grep "^CONFIG_B bool Kconfig:20$" out
'

test_done
