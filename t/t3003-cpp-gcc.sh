#!/bin/sh
test_description='cpp: the block tree keeps the lines a real preprocessor keeps

unifdef cannot read multi-line #if lines, arithmetic or #elifdef; the C
compiler'"'"'s own preprocessor can. Generated files mark each text line with a
unique name (v12, c3, ...): the names in the lines the block tree keeps must
be the names in the output of cc -E, for random assignments of every symbol.
'
. ./test-lib.sh

SYMS="CONFIG_A CONFIG_B CONFIG_C CONFIG_D CONFIG_E CONFIG_F CONFIG_G CONFIG_H"
CPP_CC=${CC:-cc}
echo "int x;" >probe.c &&
"$CPP_CC" -E -P probe.c >/dev/null 2>&1 && test_set_prereq CC_E

# names <file>: the line markers in it, one a line, sorted
names () {
	grep -o "\<[vcqs][0-9][0-9]*\>" "$1" | sort
}

test_expect_success CC_E 'generated files with continuations, comments, #elifdef, arithmetic' '
	for seed in $(seq 1 20); do
		test-cpp gen --cpp $seed >gen.c &&
		test-cpp assign $seed 5 $SYMS >assign &&
		while read -r args; do
			"$CPP_CC" -E -P -x c $args gen.c >cc.out 2>cc.err &&
			test-cpp keep gen.c $args >keep.out &&
			names cc.out >expect &&
			names keep.out >actual &&
			if ! cmp -s expect actual; then
				echo "differs: seed $seed: $args" &&
				diff expect actual
				return 1
			fi || return 1
		done <assign || return 1
	done
'

test_expect_success CC_E 'the generator produced what only cc reads' '
	for seed in $(seq 1 30); do test-cpp gen --cpp $seed; done >all.c &&
	grep -q "elifdef" all.c &&
	grep -q "elifndef" all.c &&
	grep -q "|| defined(CONFIG_A)" all.c &&
	grep -q "across lines \*/" all.c &&
	grep -q " / 2 == 1" all.c &&
	grep -q " ? " all.c
'

test_done
