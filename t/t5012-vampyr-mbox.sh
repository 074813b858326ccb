#!/bin/sh
test_description='git vampyr --mbox: each patch of a series covered as the commit it would be'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup: two commits, exported by git format-patch --base' '
	setup_foo_bar_commits &&
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_FOO
	int foo;
	#endif
	#ifndef CONFIG_BAR
	int nobar;
	#endif
	EOF
	git commit -q -a -m "a: nobar" && git tag tip &&
	git format-patch -q --stdout --base=base base..tip >series.mbox &&
	git vampyr --no-notes --format=json --commit=bad -o c1 >c1.json &&
	git vampyr --no-notes --format=json --commit=tip -o c2 >c2.json
'

# The JSON of a commit's cover with its commit, patch and fragment paths left out.
strip () {
	sed -e "s/\"commit\":\"[0-9a-f]*\",//" -e "s/\"patch\":\"[^\"]*\",//" \
		-e "s/\"path\":\"[^\"]*config-/\"path\":\"config-/g" "$@"
}

test_expect_success 'the same cover as the commits, fragments in vampyr-mbox/<n>' '
	git checkout -q base &&
	git vampyr --format=json --mbox=series.mbox >mbox.json &&
	test_line_count = 2 mbox.json &&
	{ strip c1.json && strip c2.json; } >expect &&
	strip mbox.json >actual &&
	test_cmp expect actual &&
	test_cmp c1/config-1.config vampyr-mbox/1/config-1.config &&
	test_cmp c2/config-1.config vampyr-mbox/2/config-1.config &&
	grep "\"patch\":\"\[PATCH 2/2\] a: nobar\"" mbox.json
'

test_expect_success 'text: each cover under its patch subject; no note, from stdin with -o' '
	git vampyr --mbox - -o out <series.mbox >text.out &&
	grep -x "\[PATCH 1/2\] add b" text.out &&
	grep -x "\[PATCH 2/2\] a: nobar" text.out &&
	test -f out/2/config-1.config &&
	test_must_fail git rev-parse --verify -q refs/notes/vampyr
'

test_expect_success 'a directory of git format-patch output, as the mbox' '
	git format-patch -q --base=base --cover-letter -o series.d base..tip &&
	git vampyr --format=json --mbox=series.d -o dir >dir.json &&
	strip mbox.json >expect &&
	strip dir.json >actual &&
	test_cmp expect actual &&
	test_cmp vampyr-mbox/2/config-1.config dir/2/config-1.config
'

test_expect_success 'a patch that does not apply is named' '
	git checkout -q tip &&
	git format-patch -q --stdout base..tip >nobase.mbox &&
	test_expect_code 128 git vampyr --mbox=nobase.mbox 2>err &&
	grep "patch .\[PATCH 1/2\] add b. (nobase.mbox:1) does not apply: b.c: already exists" err
'

test_done
