#!/bin/sh
test_description='every run that printed error: exits at least 1; a commit whose files could not all be read gets no note'
. ./test-lib.sh

test_expect_success 'setup: a tree whose Kconfig has a syntax error' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	config BROKEN
		bool "broken"
		depends on (FOO
	EOF
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_FOO
	int foo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base
'

test_expect_success 'a Kconfig syntax error: a range, --all and --dump-model exit 1' '
	test_expect_code 1 git undertaker --no-notes HEAD >out 2>err &&
	grep "error: Kconfig:5: " err &&
	test_expect_code 1 git undertaker --no-notes --all >out 2>err &&
	grep "error: Kconfig:5: " err &&
	test_expect_code 1 git undertaker --dump-model=symbols >out 2>err &&
	grep "error: Kconfig:5: " err &&
	grep "FOO" out
'

test_expect_success 'a Kconfig syntax error: git vampyr exits 1' '
	test_expect_code 1 git vampyr --no-notes -o frag >out 2>err &&
	grep "error: Kconfig:5: " err
'

test_expect_success 'a source that cannot be opened and an unterminated comment exit 1' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	source "missing/Kconfig"
	EOF
	write_file b.c <<-\EOF &&
	#ifdef CONFIG_FOO
	int foo; /* never closed
	#endif
	EOF
	git add . && test_tick && git commit -q -m broken &&
	test_expect_code 1 git undertaker --no-notes HEAD >out 2>err &&
	grep "missing/Kconfig" err &&
	grep "b.c:2: unterminated comment" err
'

test_expect_success 'setup: a good Kconfig, a file with a defect' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	EOF
	rm b.c &&
	write_file c.c <<-\EOF &&
	int c;
	EOF
	git add -A && test_tick && git commit -q -m fixed &&
	write_file c.c <<-\EOF &&
	#ifdef CONFIG_FOO_TYPO
	int typo;
	#endif
	EOF
	git add -A && test_tick && git commit -q -m typo &&
	test_expect_code 1 git undertaker --no-notes HEAD >expect
'

# As in a partial clone before its lazy fetch: the diff needs only ids, the
# analysis the content.
test_expect_success 'a blob that cannot be read: an error, no note, exit 1' '
	blob=$(git rev-parse HEAD:c.c) &&
	obj=.git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	mv "$obj" saved-object &&
	test_expect_code 1 git undertaker HEAD >out 2>err &&
	mv saved-object "$obj" &&
	grep "error: .*$blob" err &&
	grep "not noted" err &&
	test_must_fail git notes --ref=undertaker show HEAD
'

test_expect_success 'once the blob is readable, the defect is found and noted' '
	test_expect_code 1 git undertaker HEAD >actual &&
	test_cmp expect actual &&
	git notes --ref=undertaker show HEAD >note &&
	grep "c.c:1: dead block" note
'

test_expect_success 'errors in a file no Makefile builds are warnings; a census says them with -v only' '
	git init -q unbuilt &&
	(cd unbuilt &&
	 printf "config FOO\n\tbool \"foo\"\n" >Kconfig &&
	 echo "obj-y += d/" >Kbuild &&
	 mkdir d &&
	 echo "obj-y += built.o" >d/Makefile &&
	 printf "#ifdef CONFIG_FOO\nint x;\n#endif\n" >d/built.c &&
	 printf "#ifdef CONFIG_FOO\n#endif\n" >d/unlisted.S &&
	 git add . && test_tick && git commit -q -m base &&
	 printf "#else\n#ifdef CONFIG_FOO\n#endif\n/* open" >d/unlisted.S &&
	 git add . && test_tick && git commit -q -m unlisted &&
	 git undertaker HEAD^! >out 2>err &&
	 test_must_be_empty out &&
	 grep "^git undertaker: warning: d/unlisted.S:1: #else without #if (no Makefile builds this file)$" err &&
	 ! grep "error:" err &&
	 git notes --ref=undertaker show HEAD >note &&
	 git undertaker --all HEAD >out 2>err &&
	 test_must_be_empty err &&
	 git undertaker --all -v HEAD >out 2>err &&
	 grep "warning: d/unlisted.S:4: unterminated comment" err &&
	 cp d/unlisted.S d/built.c &&
	 git add . && test_tick && git commit -q -m "built file broken" &&
	 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	 grep "^git undertaker: error: d/built.c:1: #else without #if$" err)
'

test_expect_success 'a notes ref that names a blob: said, nothing written, the ref as it was' '
	git init -q blobref &&
	(cd blobref &&
	 printf "config FOO\n\tbool \"foo\"\n" >Kconfig &&
	 printf "#ifdef CONFIG_FOOO\n#endif\n" >a.c &&
	 git add . && test_tick && git commit -q -m base &&
	 blob=$(echo hi | git hash-object -w --stdin) &&
	 git update-ref refs/notes/undertaker $blob &&
	 test_expect_code 128 git undertaker HEAD^! >out 2>err &&
	 grep "^git undertaker: error: refs/notes/undertaker points at $blob, which is not a notes commit; nothing written" err &&
	 test $(wc -l <err) = 1 &&
	 test $(git rev-parse refs/notes/undertaker) = $blob)
'

test_done
