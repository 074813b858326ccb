#!/bin/sh
test_description='shallow clones: a commit at the boundary is a root, as git sees it'
. ./test-lib.sh

test_expect_success 'setup: four commits, a clone of depth 2' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	EOF
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_FOO
	int a;
	#endif
	EOF
	git add . && test_tick && git commit -q -m one &&
	for i in 2 3 4; do
		write_file f$i.c <<-EOF &&
		#ifdef CONFIG_NOPE_$i
		int f$i;
		#endif
		EOF
		git add . && test_tick && git commit -q -m "c$i" || return 1
	done &&
	git clone -q --depth 2 "file://$PWD" shallow &&
	test_line_count = 1 shallow/.git/shallow &&
	git -C shallow rev-list HEAD >expect && test_line_count = 2 expect
'

test_expect_success 'the range walk stops at the boundary as git rev-list does' '
	(cd shallow &&
	 git rev-list --reverse --topo-order HEAD >../expect &&
	 test-revisions -n 10 HEAD >../actual &&
	 git rev-list "HEAD~1^!" >../expect.one &&
	 test-revisions "HEAD~1^!" >../actual.one) &&
	test_cmp expect actual &&
	test_cmp expect.one actual.one
'

test_expect_success 'git undertaker HEAD~1^! checks the boundary commit as a root' '
	(cd shallow &&
	 test_expect_code 1 git undertaker "HEAD~1^!" >../out 2>../err) &&
	grep "$(git rev-parse --short HEAD~1): at the shallow boundary of this clone" err &&
	grep "^f2.c:1: dead block B0 (missing CONFIG_NOPE_2, global)" out &&
	grep "^f3.c:1: dead block B0 (missing CONFIG_NOPE_3, global)" out &&
	git -C shallow notes --ref=undertaker show HEAD~1 >note &&
	grep "Undertaker: 2 new" note
'

test_expect_success 'the commit after the boundary, and a walk across it' '
	(cd shallow &&
	 test_expect_code 1 git undertaker --force --no-notes HEAD >../out 2>../err) &&
	test_must_be_empty err &&
	grep "^f4.c:1: dead block B0" out &&
	! grep "f3.c" out &&
	(cd shallow && test_expect_code 1 git undertaker --no-notes --force -n 5 >../out 2>../err) &&
	grep "^$(git rev-parse --short HEAD~1) c3$" out &&
	grep "^$(git rev-parse --short HEAD) c4$" out &&
	test_line_count = 1 err
'

test_expect_success 'git vampyr on the boundary commit' '
	(cd shallow && git vampyr --no-notes -o frags HEAD~1 >../out 2>../err) &&
	grep "^1 configuration compiles 1 of 3 blocks (2 dead" out
'

test_done
