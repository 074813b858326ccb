#!/bin/sh
test_description='git undertaker --mbox: a patch series checked before it is commits'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

# The defect lines of a run, headings (a commit's or a patch's) left out.
defect_lines () {
	grep "^[a-z].*:[0-9]*: " "$1" | sort
}

objects () {
	find .git/objects -type f | sort
}

test_expect_success 'setup: two commits with defects, exported by git format-patch --base' '
	setup_foo_bar_commits &&
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_FOO
	int foo;
	#endif
	#ifdef CONFIG_BAZ
	int baz;
	#endif
	EOF
	git commit -q -a -m "a: baz" && git tag tip &&
	git format-patch -q --stdout --thread --base=base base..tip >series.mbox &&
	git format-patch -q --base=base --cover-letter -o out base..tip &&
	test_expect_code 1 git undertaker --no-notes base..tip >commits.out &&
	defect_lines commits.out >expect &&
	test_line_count = 2 expect
'

test_expect_success 'the series from an mbox: the defects of the two commits, each under its subject' '
	git checkout -q base &&
	objects >objects.before &&
	test_expect_code 1 git undertaker --mbox=series.mbox >mbox.out &&
	defect_lines mbox.out >actual &&
	test_cmp expect actual &&
	grep -x "\[PATCH 1/2\] add b" mbox.out &&
	grep -x "\[PATCH 2/2\] a: baz" mbox.out &&
	test_line_count = 4 mbox.out
'

test_expect_success 'nothing is written: no object, no note, no ref, no work-tree change' '
	objects >objects.after &&
	test_cmp objects.before objects.after &&
	test_must_fail git rev-parse --verify -q refs/notes/undertaker &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse base)" &&
	git status --porcelain --untracked-files=no >status &&
	test_must_be_empty status
'

test_expect_success 'from standard input, and as --format=json with the patch subject' '
	test_expect_code 1 git undertaker --mbox - <series.mbox >stdin.out &&
	test_cmp mbox.out stdin.out &&
	test_expect_code 1 git undertaker --mbox=- --format=json <series.mbox >json.out &&
	test_line_count = 2 json.out &&
	grep "\"patch\":\"\[PATCH 2/2\] a: baz\"" json.out &&
	grep "\"message_id\":\"<" json.out
'

test_expect_success 'several files: the cover letter gives the base, the patches follow' '
	git checkout -q tip &&
	test_expect_code 1 git undertaker --mbox out/*.patch >files.out &&
	test_cmp mbox.out files.out
'

test_expect_success 'a directory of git format-patch output: its *.patch files in name order' '
	mkdir -p dir &&
	# Written out of order, with a file that is no patch beside them.
	cp out/0002-*.patch dir/ && cp out/0001-*.patch dir/ && cp out/0000-*.patch dir/ &&
	echo "not a patch" >dir/notes.txt &&
	test_expect_code 1 git undertaker --mbox=out >dir.out &&
	test_cmp mbox.out dir.out &&
	test_expect_code 1 git undertaker --mbox=dir/ >dir2.out &&
	test_cmp mbox.out dir2.out &&
	test_expect_code 1 git undertaker --format=json --mbox=dir >dir.json &&
	head -n 1 dir.json | grep "\"patch\":\"\[PATCH 1/2\] add b\"" &&
	# A cover letter without a base-commit line is skipped all the same.
	sed "/^base-commit:/d" out/0000-*.patch >dir/0000-cover-letter.patch &&
	test_expect_code 1 git undertaker --base=base --mbox=dir >dir3.out &&
	test_cmp mbox.out dir3.out &&
	mkdir empty &&
	test_expect_code 128 git undertaker --mbox=empty 2>err &&
	grep "empty: no \*.patch file in it" err
'

test_expect_success 'the base: base-commit line, --base, else HEAD' '
	git format-patch -q --stdout base..tip >nobase.mbox &&
	git checkout -q base &&
	test_expect_code 1 git undertaker --mbox=nobase.mbox >head.out &&
	test_cmp mbox.out head.out &&
	git checkout -q tip &&
	test_expect_code 128 git undertaker --mbox=nobase.mbox 2>err &&
	grep "does not apply" err &&
	test_expect_code 1 git undertaker --mbox=nobase.mbox --base=base >based.out &&
	test_cmp mbox.out based.out
'

test_expect_success 'a patch that does not apply is named; those before it are checked, none after' '
	sed "s/^ int foo;/ int fooo;/" out/0002-*.patch >bad.patch &&
	test_expect_code 128 git undertaker --base=base --mbox out/0001-*.patch bad.patch out/0002-*.patch \
		>bad.out 2>err &&
	grep "patch .\[PATCH 2/2\] a: baz. (bad.patch) does not apply" err &&
	grep -x "\[PATCH 1/2\] add b" bad.out &&
	! grep BAZ bad.out
'

test_expect_success 'a file with no patch, a base not in the repository' '
	echo "hello" >nopatch.txt &&
	test_expect_code 128 git undertaker --mbox=nopatch.txt 2>err &&
	grep "nopatch.txt: no patch in it" err &&
	sed "s/^base-commit: .*/base-commit: 0123456789012345678901234567890123456789/" \
		series.mbox >far.mbox &&
	test_expect_code 128 git undertaker --mbox=far.mbox 2>err &&
	grep "its base 0123456789012345678901234567890123456789 is not in this repository" err
'

test_expect_success 'an Undertaker-Accept trailer in the patch accepts, as in a commit' '
	git checkout -q base &&
	sed "/^Subject: .*add b/a\\
\\
Undertaker-Accept: b.c:2" out/0001-*.patch >accept.patch &&
	git undertaker --mbox=accept.patch >accept.out &&
	test_must_be_empty accept.out
'

test_expect_success 'a mail as a list delivers it: quoted-printable, CRLF, an encoded subject' '
	{
		printf "From: =?UTF-8?q?J=C3=B6rg?= <j@example.org>\r\n" &&
		printf "Subject: [PATCH] =?UTF-8?q?b=3A_add?=\r\n" &&
		printf "Message-Id: <m1@example.org>\r\n" &&
		printf "Content-Transfer-Encoding: quoted-printable\r\n\r\n" &&
		printf "A body line that is long enough to be wrapped by the list=\r\n softly.\r\n---\r\n" &&
		sed -n "/^diff --git/,/^-- \$/p" out/0001-*.patch | sed "\$d" |
			sed "s/=/=3D/g; s/\$/\r/"
	} >qp.eml &&
	test_expect_code 1 git undertaker --mbox=qp.eml --format=json >qp.out &&
	grep "\"patch\":\"\[PATCH\] b: add\"" qp.out &&
	grep "\"path\":\"b.c\",\"line\":2" qp.out
'

test_expect_success 'usage: --mbox takes no range options, --base needs --mbox' '
	test_expect_code 129 git undertaker --mbox=series.mbox --all 2>err &&
	test_expect_code 129 git undertaker --base=base 2>err &&
	grep "base of an --mbox series" err
'

test_done
