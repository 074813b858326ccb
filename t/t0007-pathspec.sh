#!/bin/sh
test_description='pathspecs are read relative to the current directory, as git reads them'
. ./test-lib.sh

test_expect_success 'setup: a defect in drivers/firmware/scmi' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	EOF
	write_file drivers/firmware/scmi/a.c <<-\EOF &&
	#ifdef CONFIG_FOO_TYPO
	int a;
	#endif
	EOF
	write_file drivers/other/b.c <<-\EOF &&
	#ifdef CONFIG_BAR_TYPO
	int b;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base
'

test_expect_success 'a pathspec from a subdirectory is relative to it' '
	(cd drivers/firmware &&
	 test_expect_code 1 git undertaker --no-notes HEAD -- scmi/ >../../out 2>../../err) &&
	grep "^drivers/firmware/scmi/a.c:1: " out &&
	! grep "drivers/other" out &&
	test_must_be_empty err
'

test_expect_success '"." and ".." are resolved, ":/" is the top' '
	(cd drivers/firmware/scmi &&
	 test_expect_code 1 git undertaker --no-notes HEAD -- . >../../../out1 &&
	 test_expect_code 1 git undertaker --no-notes HEAD -- ../../other >../../../out2 &&
	 test_expect_code 1 git undertaker --no-notes HEAD -- :/drivers/other/b.c >../../../out3 &&
	 test_expect_code 1 git undertaker --no-notes HEAD -- ":(exclude)a.c" >../../../out4) &&
	grep "^drivers/firmware/scmi/a.c:1: " out1 && ! grep other out1 &&
	grep "^drivers/other/b.c:1: " out2 && ! grep scmi out2 &&
	grep "^drivers/other/b.c:1: " out3 &&
	grep "^drivers/other/b.c:1: " out4 && ! grep scmi/a.c out4
'

test_expect_success 'a pathspec that matches no file is a warning, as in git add' '
	(cd drivers/firmware &&
	 test_expect_code 0 git undertaker --no-notes HEAD -- nosuch/ >../../out 2>../../err) &&
	grep "warning: pathspec .drivers/firmware/nosuch/. did not match any file" err &&
	test_must_be_empty out
'

test_expect_success 'a pathspec outside the repository is fatal' '
	(cd drivers &&
	 test_expect_code 128 git undertaker --no-notes HEAD -- ../../x 2>../err) &&
	grep "outside the repository" err
'

test_expect_success 'git vampyr reads pathspecs the same way' '
	(cd drivers/firmware/scmi &&
	 git vampyr --no-notes -o ../../../frag --commit HEAD -- a.c >../../../vout 2>&1) &&
	grep "a.c" vout
'

test_done
