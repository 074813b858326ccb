#!/bin/sh
test_description='git undertaker --format=email: replies a bot can send, as an mbox'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup: a threaded series of three, the middle one clean' '
	setup_foo_bar_commits &&
	write_file c.c <<-\EOF &&
	int c;
	EOF
	git add c.c && test_tick && git commit -q -m "add c" &&
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_FOO
	int foo;
	#endif
	#ifdef CONFIG_BAZ
	#endif
	EOF
	git commit -q -a -m "a: baz" && git tag tip &&
	git format-patch -q --stdout --thread --base=base --to=list@example.org \
		--cc=maint@example.org base..tip >series.mbox &&
	git config undertaker.reportedBy "Undertaker Bot <bot@example.org>" &&
	git config undertaker.closesUrl "https://lists.example.org/r/"
'

test_expect_success 'one reply per patch with new defects, an mbox git mailsplit reads' '
	test_expect_code 1 git undertaker --format=email --mbox=series.mbox >replies &&
	mkdir split &&
	git mailsplit -osplit replies >count &&
	echo 2 >expect &&
	test_cmp expect count
'

test_expect_success 'the headers: Re: subject, In-Reply-To and References from the Message-Id' '
	sed -n "s/^Message-Id: //p" series.mbox >ids &&
	test_line_count = 3 ids &&
	first=$(sed -n 1p ids) && third=$(sed -n 3p ids) &&
	sed -n "1,/^\$/p" split/0001 >h1 &&
	grep -x "Subject: Re: \[PATCH 1/3\] add b" h1 &&
	grep -x "In-Reply-To: $first" h1 &&
	grep -x "References: $first" h1 &&
	grep -x "From: Undertaker Bot <bot@example.org>" h1 &&
	grep -x "To: A U Thor <author@example.com>" h1 &&
	grep -x "Cc: list@example.org, maint@example.org" h1 &&
	sed -n "1,/^\$/p" split/0002 >h3 &&
	grep -x "Subject: Re: \[PATCH 3/3\] a: baz" h3 &&
	grep -x "In-Reply-To: $third" h3 &&
	grep "^References: .*$third\$" h3
'

test_expect_success 'the body: the defects marked >>, their reasons, Reported-by and Closes' '
	sed "1,/^\$/d" split/0001 >b1 &&
	grep -x ">> b.c:2: dead block B1 (kconfig, global): #ifndef CONFIG_FOO" b1 &&
	grep "CONFIG_BAR (Kconfig:[0-9]*) depends on FOO" b1 &&
	grep -x "| Reported-by: Undertaker Bot <bot@example.org>" b1 &&
	msgid=$(sed -n "s/^Message-Id: <\(.*\)>\$/\1/p" split/0001) &&
	grep -x "| Closes: https://lists.example.org/r/$msgid" b1 &&
	sed "1,/^\$/d" split/0002 >b3 &&
	grep "^>> a.c:4: dead block B1 (missing CONFIG_BAZ, global)" b3 &&
	! grep "^>> b.c" b3
'

test_expect_success 'git mailinfo reads a reply as a mail' '
	git mailinfo msg patch <split/0001 >info &&
	grep -x "Subject: \[PATCH 1/3\] add b" info ||
	grep -x "Subject: add b" info
'

test_expect_success 'commits: a reply per commit, to its author, no In-Reply-To; no Closes when unset' '
	git config undertaker.closesUrl "" &&
	test_expect_code 1 git undertaker --no-notes --format=email base..tip >creplies &&
	grep -c "^Subject: Re: " creplies >count &&
	echo 2 >expect &&
	test_cmp expect count &&
	grep -x "Subject: Re: add b" creplies &&
	! grep "^In-Reply-To:" creplies &&
	! grep "Closes:" creplies
'

test_expect_success 'nothing new: nothing written, exit 0' '
	git undertaker --no-notes --format=email base >none &&
	test_must_be_empty none
'

test_done
