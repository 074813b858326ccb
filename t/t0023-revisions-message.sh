#!/bin/sh
test_description=':/<text> revisions as git resolves them (libgit2 1.5 leaked on them)'
. ./test-lib.sh

test_expect_success 'setup: commits on two branches and a notes ref' '
	test_commit one &&
	test_commit "two: fix the frobnicator" &&
	git checkout -q -b side HEAD~1 &&
	test_commit "three on side" &&
	git checkout -q main &&
	test_commit four &&
	git notes add -m "a note" HEAD
'

for spec in ":/one" ":/fix the" ":/three" ":/^fo" ":/!-four" ":/!!" ":/!!nope" ":/Notes added" ":/o"; do
	test_expect_success "$spec resolves as git rev-parse does" '
		if git rev-parse -q --verify "$spec" >expect 2>/dev/null; then
			test-revisions "$spec" >actual &&
			test_cmp expect actual
		else
			test_expect_code 128 test-revisions "$spec" 2>err &&
			grep "bad revision" err
		fi
	'
done

test_expect_success 'a range with :/ on either side' '
	git rev-list --reverse --topo-order ":/one..:/four" >expect &&
	test-revisions ":/one..:/four" >actual &&
	test_cmp expect actual &&
	test_expect_code 0 git undertaker --no-notes ":/one..:/four"
'

test_done
