#!/bin/sh
test_description='reading files at a commit: paths, listings, the blob cache from several threads'
. ./test-lib.sh

# Listings are compared with sort(1): byte order, as strcmp.
LC_ALL=C
export LC_ALL

test_expect_success 'setup' '
	for d in "" a/ a/b/ c/; do
		mkdir -p "./$d" &&
		for f in 1 2 3 4 5 6 7 8; do
			seq $f $((f * 100)) >"./${d}f$f.c" || return 1
		done
	done &&
	printf "no newline" >a/raw &&
	ln -s f1.c link &&
	git add . && test_tick && git commit -q -m one &&
	echo changed >>a/f1.c && git add . && test_tick && git commit -q -m two
'

# "<size> <path>" of every blob, as git ls-tree -r -l shows it.
git_sizes () {
	git ls-tree -r -l "$1" -- $2 | awk "{ print \$4, \$5 }" | sort
}

test_expect_success 'every file, read by 1 and by 4 threads at once' '
	git_sizes HEAD >expect &&
	test-read files HEAD 1 1000000 | sort >actual && test_cmp expect actual &&
	test-read files HEAD 4 1000000 | sort >actual && test_cmp expect actual
'

test_expect_success 'a tiny cache evicts and still reads right' '
	git_sizes HEAD~1 >expect &&
	test-read files HEAD~1 4 100 | sort >actual && test_cmp expect actual
'

test_expect_success 'files under a directory' '
	git_sizes HEAD a/ >expect &&
	test-read files HEAD 2 0 a | sort >actual && test_cmp expect actual &&
	test-read files HEAD 2 0 a/ | sort >actual && test_cmp expect actual
'

test_expect_success 'reading one path, and a missing one' '
	test-read cat HEAD~1 a/f1.c >actual && git show HEAD~1:a/f1.c >expect && test_cmp expect actual &&
	test-read cat HEAD a/raw >actual && printf "no newline" >expect && test_cmp expect actual &&
	test_expect_code 1 test-read cat HEAD a/nosuch >actual &&
	echo "(not found)" >expect && test_cmp expect actual &&
	test_expect_code 1 test-read cat HEAD a/b >actual && test_cmp expect actual
'

test_expect_success 'listing a directory' '
	test-read ls HEAD "" >actual &&
	git ls-tree --name-only HEAD | sort >expect && test_cmp expect actual &&
	test-read ls HEAD a >actual &&
	git ls-tree --name-only HEAD a/ | sed "s|^a/||" | sort >expect && test_cmp expect actual &&
	test_expect_code 1 test-read ls HEAD nosuch
'

test_expect_success 'pathspecs select the files git ls-files selects' '
	for spec in a a/ a/b "a/f1.c" "*.c" "a/*" "a/*.c" "f?.c" "a/b/f[12].c" "[ac]" \
		    "a*" . "./a" ":!a" ":(exclude)a/b" ":^*.c" ":/c" ":(icase)A/F1.C" \
		    "nosuch" "a/f1" "a/f1.c/"; do
		git ls-files -- "$spec" | sort >expect &&
		test-read match HEAD "$spec" | sort >actual &&
		test_cmp expect actual || { echo "pathspec $spec"; return 1; }
	done &&
	git ls-files -- a ":!a/b" "c/f1.c" | sort >expect &&
	test-read match HEAD a ":!a/b" "c/f1.c" | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'commit titles, abbreviations and config values' '
	git config --add undertaker.macro "A(x)=x" &&
	git config --add undertaker.macro "B(x)=!x" &&
	test-read title HEAD undertaker.macro >actual &&
	git log -1 --format="%h %s" >expect &&
	git rev-parse --short HEAD >>expect &&
	printf "%s\n" "B(x)=!x" "A(x)=x" "B(x)=!x" >>expect &&
	test_cmp expect actual &&
	git -c core.abbrev=12 log -1 --format="%h" >expect &&
	test-read title HEAD undertaker.macro >actual &&
	git config core.abbrev 12 && test-read title HEAD nosuch.key >actual &&
	sed -n 2p actual >short && test_cmp expect short &&
	sed -n 3p actual >unset && echo "(unset)" >expect && test_cmp expect unset &&
	git config --unset core.abbrev
'

test_expect_success 'the same from a bare repository' '
	git clone -q --bare . bare.git &&
	git_sizes HEAD >expect &&
	(cd bare.git && test-read files HEAD 3 1000 | sort) >actual && test_cmp expect actual
'

test_done
