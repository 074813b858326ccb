#!/bin/sh
test_description='first-parent diffs match git diff --name-status -M and git diff -U0 hunks'
. ./test-lib.sh

# git's view of commit $1: each --name-status line followed by its -U0 hunk headers.
git_view () {
	git show --format= --name-status -M "$1" -- $2 >names &&
	git show --format= -U0 -M "$1" -- $2 >patch &&
	awk 'NR == FNR { name[++n] = $0; next }
	     /^diff --git / { s = name[++i]; sub(/^R[0-9]+/, "R", s); print s; next }
	     /^@@ / { sub(/ @@.*/, " @@"); print }' names patch
}

check_diff () {
	test-diff "$1" -- $2 >actual &&
	git_view "$1" "$2" >expect &&
	test_cmp expect actual
}

test_expect_success 'setup' '
	printf "%s\n" 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 >a.c &&
	printf "%s\n" one two three >b.c &&
	mkdir -p dir sub/deep &&
	printf "line %s of a header that is long enough to be similar\n" 1 2 3 4 5 6 7 8 >dir/x.h &&
	echo deep >sub/deep/y.c &&
	git add . && test_tick && git commit -q -m root && git tag root &&

	printf "%s\n" 0 1 2 three 4 5 6 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 >a.c &&
	git rm -q b.c &&
	echo new >new.c &&
	mkdir -p inc && git mv dir/x.h inc/x.h &&
	sed -i "s/line 3 /line three /" inc/x.h &&
	git add . && test_tick && git commit -q -m change && git tag change &&

	git mv inc/x.h inc/y.h && test_tick && git commit -q -m pure-rename && git tag pure &&

	rm new.c && ln -s a.c new.c && git add new.c &&
	printf "\0binary\0" >bin.dat && git add bin.dat &&
	test_tick && git commit -q -m typechange && git tag typechange
'

test_expect_success 'the root commit diffs against the empty tree' '
	check_diff root &&
	grep "^A	a.c" actual && grep "^@@ -0,0 +1,20 @@" actual
'

test_expect_success 'add, delete, modify and a rename with changes' '
	check_diff change &&
	grep "^R	dir/x.h	inc/x.h" actual && grep "^D	b.c" actual && grep "^A	new.c" actual
'

test_expect_success 'beyond diff.renameLimit, only exact renames, as git does' '
	git checkout -q -b limit change &&
	printf "another header line %s, long enough to be similar\n" 1 2 3 4 5 6 7 8 >p.h &&
	echo gone >gone.c &&
	git add . && test_tick && git commit -q -m limit-base &&
	git mv p.h q.h && sed -i "s/line 3,/line three,/" q.h &&
	git rm -q gone.c && echo fresh >fresh.c &&
	git add . && test_tick && git commit -q -m limit && git tag limit &&
	git checkout -q - &&
	check_diff limit &&
	grep "^R	p.h	q.h" actual &&
	git config diff.renameLimit 1 &&
	test_when_finished "git config --unset diff.renameLimit" &&
	check_diff limit &&
	grep "^D	p.h" actual && grep "^A	q.h" actual
'

test_expect_success 'hunks of insertions and deletions as -U0 prints them' '
	test-diff change -- a.c >actual &&
	cat >expect <<-\EOF &&
	M	a.c
	@@ -0,0 +1 @@
	@@ -3 +4 @@
	@@ -7 +7,0 @@
	@@ -20,0 +21,2 @@
	EOF
	test_cmp expect actual
'

test_expect_success 'a pure rename has no hunks' '
	check_diff pure &&
	echo "R	inc/x.h	inc/y.h" >expect && test_cmp expect actual
'

test_expect_success 'a type change and a binary file have no hunks' '
	test-diff typechange >actual &&
	git show --format= --name-status -M typechange >expect &&
	test_cmp expect actual &&
	grep "^T	new.c" actual && grep "^A	bin.dat" actual
'

test_expect_success 'pathspecs limit the diff (and the rename sources)' '
	check_diff change "a.c" &&
	check_diff change "inc" &&
	check_diff change "*.c" &&
	check_diff change ":!a.c" &&
	check_diff root "sub" &&
	check_diff root "s*" &&
	test-diff change -- inc >actual && grep "^A	inc/x.h" actual
'

test_expect_success 'only the subtrees that differ are opened: a file that becomes a directory, a directory removed, an empty commit' '
	git checkout -q -b shapes change &&
	mkdir -p keep/a keep/b && echo 1 >keep/a/one.c && echo 2 >keep/b/two.c &&
	echo file >swap && git add keep swap && test_tick && git commit -q -m shapes-base &&
	git rm -q swap && mkdir swap && echo 3 >swap/three.c && git rm -q -r keep/b &&
	echo 4 >keep/a/four.c && git add keep swap && test_tick && git commit -q -m shapes &&
	git tag shapes && check_diff shapes &&
	grep "^D	swap$" actual && grep "^A	swap/three.c" actual && grep "^D	keep/b/two.c" actual &&
	test_tick && git commit -q --allow-empty -m empty && git tag empty &&
	test-diff empty >actual && test_must_be_empty actual &&
	git checkout -q -
'

test_expect_success 'the same in a bare repository' '
	git clone -q --bare . bare.git &&
	(cd bare.git && check_diff change && check_diff root && check_diff pure)
'

test_done
