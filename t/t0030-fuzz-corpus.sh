#!/bin/sh
test_description='every input kept in fuzz/corpus/ (the seeds) and fuzz/regress/ (what the fuzzers found) replayed through its target without libFuzzer; under SANITIZE=1 with the sanitizers'
. ./test-lib.sh

for target in cpp kbuild kconfig model notes outtree
do
	test_expect_success "fuzz-$target: every input of fuzz/corpus/$target" '
		corpus="$UT_SRC_DIR/fuzz/corpus/'$target'" &&
		regress="$UT_SRC_DIR/fuzz/regress/'$target'" &&
		mkdir -p empty &&
		test -d "$regress" || regress=empty &&
		n=$(ls "$corpus" "$regress" | grep -cv -e "^$" -e ":$") &&
		test "$n" -gt 0 &&
		"$UT_BUILD_DIR/fuzz/replay-'$target'" "$corpus" "$regress" >out &&
		echo "replayed $n inputs" >expect &&
		test_cmp expect out
	'
done

# Each crash found, on its own, so that its test names it.
test_expect_success 'fuzz-notes: a non-note sorted before the notes at the top of the tree (UBSan with clang)' '
	"$UT_BUILD_DIR/fuzz/replay-notes" "$UT_SRC_DIR/fuzz/regress/notes/crash-non-note-first" >out &&
	echo "replayed 1 inputs" >expect &&
	test_cmp expect out
'

test_expect_success 'fuzz-kbuild: a NUL byte among the arguments of a CMake command (it looped, growing the argument list until out of memory)' '
	(
		ulimit -t 20 &&
		"$UT_BUILD_DIR/fuzz/replay-kbuild" "$UT_SRC_DIR/fuzz/regress/kbuild/cmake-nul-byte" >out
	) &&
	echo "replayed 1 inputs" >expect &&
	test_cmp expect out
'

# Two inputs that ran past libFuzzer's 20 s under ASan: alternatives of
# self-referencing variables, built and concatenated without being charged
# to the 16 MiB budget (1.75 s CPU unsanitized before, 0.08 s now).
for input in timeout-alternatives-concat timeout-alternatives-budget timeout-alternatives-loaded
do
	test_expect_success "fuzz-kbuild: $input stops at the 16 MiB expansion budget" '
		(
			ulimit -t 20 &&
			"$UT_BUILD_DIR/fuzz/replay-kbuild" "$UT_SRC_DIR/fuzz/regress/kbuild/'$input'" >out 2>err
		) &&
		grep "error: Makefile:[0-9]*: variables expand to more than 16 MiB; the rest is unknown" err
	'
done

test_done
