#!/bin/sh
test_description='every input kept in fuzz/corpus/ (seeds and each crash the fuzzers found) replayed through its target without libFuzzer; under SANITIZE=1 with the sanitizers'
. ./test-lib.sh

for target in cpp kbuild kconfig notes
do
	test_expect_success "fuzz-$target: every input of fuzz/corpus/$target" '
		corpus="$UT_SRC_DIR/fuzz/corpus/'$target'" &&
		n=$(ls "$corpus" | wc -l) &&
		test "$n" -gt 0 &&
		"$UT_BUILD_DIR/fuzz/replay-'$target'" "$corpus" >out &&
		echo "replayed $n inputs" >expect &&
		test_cmp expect out
	'
done

# Each crash found, on its own, so that its test names it.
test_expect_success 'fuzz-notes: a non-note sorted before the notes at the top of the tree (UBSan with clang)' '
	"$UT_BUILD_DIR/fuzz/replay-notes" "$UT_SRC_DIR/fuzz/corpus/notes/crash-non-note-first" >out &&
	echo "replayed 1 inputs" >expect &&
	test_cmp expect out
'

test_done
