#!/bin/sh
test_description='the engine of parallel work: threads share out a queue, children run n at once'
. ./test-lib.sh

test_expect_success 'threads: every item taken once, by 1 or by 8 workers' '
	test-parallel threads 8 5000 >actual &&
	echo "taken 5000 once each" >expect &&
	test_cmp expect actual &&
	test-parallel threads 1 7 >actual &&
	echo "taken 7 once each" >expect &&
	test_cmp expect actual
'

test_expect_success 'children: output, exit codes and signals, at most -j at once' '
	test-parallel procs --jobs=2 "echo a; sleep 0.2" "echo b >&2; exit 3" \
		"sleep 0.2; echo c" "kill -9 \$\$" >actual &&
	cat >expect <<-\EOF &&
	0 exit 0 out=2 err=0 first=a
	1 exit 3 out=0 err=2 first=
	2 exit 0 out=2 err=0 first=c
	3 exit 137 out=0 err=0 first=
	max running 2
	returned 0
	EOF
	test_cmp expect actual
'

test_expect_success 'children: more output than a pipe holds is read whole' '
	test-parallel procs "head -c 300000 /dev/zero; echo x >&2" >actual &&
	grep "^0 exit 0 out=300000 err=2 " actual
'

test_expect_success 'children: a time limit kills the child' '
	start=$(date +%s) &&
	test-parallel procs --limit=0.5 "sleep 20" >actual &&
	test $(($(date +%s) - start)) -lt 10 &&
	grep "^0 exit 137 timed out" actual
'

# The end of a child is its exit, not the end of its pipes: a background
# grandchild that keeps stdout open does not hold the run (pidfd). It closes
# the test's own descriptors, which would hold the harness.
test_expect_success 'children: ended when the child exits, its pipe held elsewhere' '
	start=$(date +%s) &&
	test-parallel procs "(exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; sleep 6) & echo hi" >actual &&
	test $(($(date +%s) - start)) -lt 4 &&
	grep "^0 exit 0 out=3 err=0 first=hi" actual
'

test_expect_success 'children: a callback stops the run, the others are ended unreported' '
	test-parallel procs --jobs=2 --stop-on-failure "exit 1" "sleep 20" "echo never" >actual &&
	cat >expect <<-\EOF &&
	0 exit 1 out=0 err=0 first=
	1 exit -2 out=0 err=0 first=
	2 exit -2 out=0 err=0 first=
	max running 2
	returned -1
	EOF
	test_cmp expect actual
'

test_expect_success 'children: SIGTERM ends the run and its children at once' '
	start=$(date +%s) &&
	env --default-signal=INT,TERM test-parallel procs --jobs=2 "sleep 30" "sleep 30" >out 2>err &
	pid=$! &&
	sleep 0.5 &&
	kill -TERM $pid &&
	test_expect_code 143 wait $pid &&
	test $(($(date +%s) - start)) -lt 10 &&
	test_must_be_empty out
'

test_done
