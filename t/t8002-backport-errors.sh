#!/bin/sh
test_description='git backport: files spatch cannot parse named once, a summary, --macro-file, exit statuses'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-backport.sh"
need_spatch

test_expect_success 'setup: two rules, a file with U-Boot macros and a plain one' '
	write_new_api_rule rules/0001-api.cocci &&
	write_file rules/0002-bar.cocci <<-\EOF &&
	@@
	expression E;
	@@
	-bar_api(E)
	+bar_old(E)
	EOF
	write_file macros.h <<-\EOF &&
	#define U_BOOT_DRIVER(x) struct driver x
	EOF
	git add rules macros.h && test_tick && git commit -q -m base && git tag base &&
	write_file drivers/ok.c <<-\EOF &&
	void f(void) { foo_new_api(1); bar_api(2); }
	EOF
	write_file drivers/uboot.c <<-\EOF &&
	U_BOOT_DRIVER(x) = {
		.name = "x",
	};
	int h(void) { return foo_new_api(2); }
	EOF
	git add drivers && test_tick && git commit -q -m drivers && git tag drivers &&
	write_file drivers/broken.c <<-\EOF &&
	void g(void) { foo_new_api(1) bar_api(3); }
	int k(void) { return bar_api(4); }
	EOF
	git add drivers && test_tick && git commit -q -m broken && git tag broken
'

test_expect_success 'a clean run exits 0; --exit-code makes a change 1' '
	git backport --rules=rules --macro-file=macros.h base..drivers >out 2>err &&
	test_must_be_empty err &&
	grep "foo_old_api(2, 0)" out &&
	test_expect_code 1 git backport --exit-code --rules=rules --macro-file=macros.h base..drivers >out
'

test_expect_success 'a file spatch cannot parse: named once with its rules, a summary, a warning (exit 1 with --strict-parsing)' '
	git backport --rules=rules base..drivers >out 2>err &&
	cat err &&
	grep "^git backport: warning: drivers/uboot.c: cannot parse line 1, column [0-9]*, around .=. (0001-api.cocci)$" err &&
	test $(grep -c uboot.c err) = 1 &&
	grep "^git backport: warning: 1 file could not be parsed in part (spatch skips what it cannot parse, with or without git backport); see --verbose$" err &&
	test_line_count = 2 err &&
	test_expect_code 1 git backport --strict-parsing --rules=rules base..drivers >out2 2>err &&
	test_cmp out out2 &&
	grep "^git backport: error: 1 file could not be parsed in part" err &&
	# What spatch made of the rest is kept.
	grep "foo_old_api(2, 0)" out
'

test_expect_success '-v names every place, -q nothing but with --strict-parsing the summary, --ignore-failures exits 0' '
	git backport -v --rules=rules base..broken >out 2>err &&
	cat err &&
	grep "^git backport: warning: drivers/broken.c: cannot parse line 1, " err &&
	grep "^git backport: warning: 2 files could not be parsed in part (spatch skips what it cannot parse, with or without git backport)$" err &&
	git backport -q --rules=rules base..broken >out 2>err &&
	test_must_be_empty err &&
	test_expect_code 1 git backport -q --strict-parsing --rules=rules base..broken >out 2>err &&
	echo "git backport: error: 2 files could not be parsed in part (spatch skips what it cannot parse, with or without git backport); see --verbose" >expect &&
	test_cmp expect err &&
	git backport -q --strict-parsing --ignore-failures --rules=rules base..broken >out 2>err &&
	test_cmp expect err
'

test_expect_success '--macro-file: a file or <rev>:<path>, handed to spatch' '
	git backport --macro-file=macros.h --rules=rules base..drivers >out 2>err &&
	test_must_be_empty err &&
	rm macros.h &&
	git backport --macro-file=base:macros.h --rules=rules base..drivers >out2 2>err &&
	test_must_be_empty err &&
	test_cmp out out2 &&
	git checkout -q macros.h
'

test_expect_success '--macro-file: a cached result of another macro file is not reused' '
	git backport --rules=rules base..drivers >/dev/null 2>err1 ;
	grep uboot.c err1 &&
	git backport --macro-file=macros.h --rules=rules base..drivers >/dev/null 2>err2 &&
	test_must_be_empty err2
'

test_expect_success '--macro-file that is neither: fatal, 128' '
	test_expect_code 128 git backport --macro-file=base:nope.h --rules=rules base..drivers 2>err &&
	grep "macro-file.*nope.h" err
'

# Errors go up to main, which cleans up: no temporary directory is left.
test_expect_success 'bad --rules or --macro-file: an error, 128, nothing left in TMPDIR' '
	mkdir tmp &&
	test_expect_code 128 env TMPDIR="$PWD/tmp" git backport --rules=nowhere base..drivers 2>err &&
	grep "^git backport: error: --rules: .nowhere. is not a directory$" err &&
	test_expect_code 128 env TMPDIR="$PWD/tmp" git backport --rules=base:nowhere base..drivers 2>err &&
	grep "^git backport: error: --rules: .base:nowhere. is neither a directory nor a tree in the repository$" err &&
	test_expect_code 128 env TMPDIR="$PWD/tmp" git backport --rules=rules --macro-file=missing.h base..drivers 2>err &&
	grep "^git backport: error: --macro-file: cannot read .missing.h.: No such file or directory$" err &&
	ls tmp >left &&
	test_must_be_empty left
'

# spatch names a file it parsed without --verbose-parsing as "error in <path>;"
# (seen with -j on U-Boot): the message is that file's, not the first one's of
# the batch.
test_expect_success 'a parse error of the form "error in <path>;" goes to the file it names' '
	mkdir -p wrap2 &&
	write_file wrap2/spatch <<-\EOF &&
	#!/bin/sh
	groups=
	prev=
	for a in "$@"; do
		test "$prev" = --file-groups && groups=$a
		prev=$a
	done
	"$REAL_SPATCH" "$@"
	rc=$?
	if test -n "$groups"; then
		last=$(grep . "$groups" | tail -n 1)
		printf "parse error \n = error in %s; set verbose_parsing for more info\nbadcount: 3\n" "$last" >&2
	fi
	exit $rc
	EOF
	chmod +x wrap2/spatch &&
	REAL_SPATCH=$(command -v spatch) && export REAL_SPATCH &&
	git checkout -q -b error-in base &&
	mkdir -p two &&
	printf "int one(void) { return foo_new_api(1); }\n" >two/a.c &&
	printf "int two(void) { return foo_new_api(2); }\n" >two/b.c &&
	git add two && test_tick && git commit -q -m two &&
	env PATH="$PWD/wrap2:$PATH" git backport --no-notes -j 1 --rules=rules HEAD^! >out 2>err &&
	grep "warning: two/b.c: cannot parse error in ./two/b.c" err &&
	! grep "two/a.c: cannot parse" err
'


# Failures below main go up to it as errors: a file's own failure is that
# file's and the run goes on with the rest; a failure of the run's (the
# output, the notes) exits 128 with nothing half-written and, as above,
# nothing left in TMPDIR.
test_expect_success 'a rule spatch refuses: its fatal line, not its first warning nor the rule it echoes' '
	mkdir -p wrap3 rules3 &&
	write_file wrap3/spatch <<-\EOF &&
	#!/bin/sh
	for a; do test "$a" = --parse-cocci && parse=1; done
	if test -n "$parse"; then
		echo "init_defs_builtins: /usr/lib/coccinelle/standard.h"
		echo "warning: iso commeq does not match the code below on line 4"
		echo "No OCaml compiler found! Install either ocamlopt or ocamlopt.opt"
		echo "@r@"
		echo "identifier f;"
		exit 1
	fi
	exec "$REAL_SPATCH" "$@"
	EOF
	chmod +x wrap3/spatch &&
	printf "@r@\nidentifier f;\n@@\nf(...)\n@script:ocaml@\nf << r.f;\n@@\nprint_string f\n" >rules3/0001-ocaml.cocci &&
	test_expect_code 1 env PATH="$PWD/wrap3:$PATH" git backport --no-notes --rules=rules3 base..drivers >out 2>err &&
	grep "^git backport: error: 0001-ocaml.cocci: No OCaml compiler found! Install either ocamlopt or ocamlopt.opt$" err &&
	! grep "iso commeq" err
'

test_expect_success 'setup: a repository of two files for the failures below' '
	git init -q io &&
	write_new_api_rule io/rules/a.cocci &&
	printf "int a(void) { return foo_new_api(11); }\n" >io/a.c &&
	printf "int b(void) { return foo_new_api(12); }\n" >io/b.c &&
	git -C io add . && test_tick && git -C io commit -q -m files &&
	git -C io tag files &&
	mkdir io-tmp
'

test_expect_success 'a file that cannot be written for spatch (its name is too long): that file fails, the rest goes on' '
	(
		cd io &&
		long=$(printf "%0300d" 0 | tr 0 x).c &&
		blob=$(printf "int l(void) { return foo_new_api(5); }\n" | git hash-object -w --stdin) &&
		git update-index --add --cacheinfo 100644,$blob,d/$long &&
		test_tick && git commit -q -m long &&
		test_expect_code 1 env TMPDIR="$PWD/../io-tmp" \
			git backport --no-notes --rules=rules HEAD^! >out 2>err &&
		test_must_be_empty out &&
		grep "^git backport: error: d/x*\.c: a.cocci: cannot be written for spatch: File name too long$" err &&
		test_expect_code 1 git backport --no-notes --rules=rules --at=HEAD -- d b.c >out 2>err &&
		grep "^+int b(void) { return foo_old_api(12, 0); }$" out &&
		git backport --no-notes --format=json --ignore-failures --rules=rules --at=HEAD -- d >out &&
		grep "\"rule\":\"a.cocci\",\"message\":\"cannot be written for spatch: File name too long\"" out &&
		git reset -q --hard files
	) &&
	ls io-tmp >left &&
	test_must_be_empty left
'

test_expect_success 'an output that cannot be written to the object store: that file fails, the rest goes on' '
	(
		cd io &&
		rm -rf .git/backport &&
		# New objects go to objects of their own, where the fan-out directory
		# of a.c as the rule leaves it is a file; the rest is read from the
		# repository through the alternate.
		printf "int a(void) { return foo_old_api(11, 0); }\n" >a.new &&
		printf "int b(void) { return foo_old_api(12, 0); }\n" >b.new &&
		ab=$(git hash-object a.new) && bb=$(git hash-object b.new) &&
		test $(echo $ab | cut -c1-2) != $(echo $bb | cut -c1-2) &&
		mkdir -p ../io-odb/info ../io-odb/pack &&
		>../io-odb/$(echo $ab | cut -c1-2) &&
		test_expect_code 1 env GIT_OBJECT_DIRECTORY="$PWD/../io-odb" \
			GIT_ALTERNATE_OBJECT_DIRECTORIES="$PWD/.git/objects" \
			git backport --no-notes --rules=rules --at=HEAD >out 2>err &&
		cat err &&
		grep "^git backport: error: a.c: a.cocci: spatch.s output cannot be written to the object store$" err &&
		grep "^+int b(void) { return foo_old_api(12, 0); }$" out &&
		! grep "^+int a" out &&
		# Nothing of it was cached: a run that can write gives the whole preview.
		git backport --no-notes --rules=rules --at=HEAD >out &&
		grep "^+int a(void) { return foo_old_api(11, 0); }$" out
	)
'

test_expect_success 'notes that cannot be written: an error, 128, no note, nothing left in TMPDIR' '
	(
		cd io &&
		# A ref below the notes ref: refs/notes/blocked cannot be made.
		git update-ref refs/notes/blocked/x HEAD &&
		test_expect_code 128 env TMPDIR="$PWD/../io-tmp" \
			git backport --notes-ref=refs/notes/blocked --rules=rules HEAD^! >out 2>err &&
		grep "^git backport: error: cannot write notes to refs/notes/blocked$" err &&
		grep "^+int a(void) { return foo_old_api(11, 0); }$" out &&
		test_must_fail git rev-parse --verify -q refs/notes/blocked
	) &&
	ls io-tmp >left &&
	test_must_be_empty left
'

test_expect_success 'an output that cannot be written: an error, 128, no note written' '
	(
		cd io &&
		test_expect_code 128 env TMPDIR="$PWD/../io-tmp" \
			git backport --rules=rules HEAD^! >/dev/full 2>err &&
		grep "^git backport: error: cannot write the output: No space left on device$" err &&
		test_must_fail git rev-parse --verify -q refs/notes/backport
	) &&
	ls io-tmp >left &&
	test_must_be_empty left
'

test_done
