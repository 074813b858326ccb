#!/bin/sh
test_description='colour as git does it: --color[=<when>], color.ui, color.<command>'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-backport.sh"

ESC=$(printf '\033')

test_expect_success 'setup: a commit with a dead block' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	config BAR
		bool "bar"
		depends on FOO
	EOF
	git add Kconfig && test_tick && git commit -q -m base && git tag base &&
	write_file b.c <<-\EOF &&
	#ifdef CONFIG_BAR
	#ifndef CONFIG_FOO
	int never;
	#endif
	#endif
	EOF
	git add b.c && test_tick && git commit -q -m "add b" && git tag bad
'

test_expect_success 'git undertaker: plain when not a terminal' '
	test_expect_code 1 git undertaker --no-notes base..bad >out &&
	! grep "$ESC" out &&
	grep "^b.c:2: dead block B1" out
'

test_expect_success 'git undertaker: color.ui=always colours the commit line and the kind' '
	test_expect_code 1 git -c color.ui=always undertaker --no-notes base..bad >out &&
	grep "^$ESC\[33m[0-9a-f]* add b$ESC\[m$" out &&
	grep "^b.c:2: $ESC\[31mdead$ESC\[m block B1" out
'

test_expect_success 'git undertaker: color.undertaker wins over color.ui, --color over both' '
	test_expect_code 1 git -c color.ui=always -c color.undertaker=never undertaker --no-notes base..bad >out &&
	! grep "$ESC" out &&
	test_expect_code 1 git -c color.undertaker=never undertaker --color --no-notes base..bad >out &&
	grep "$ESC\[31mdead" out &&
	test_expect_code 1 git -c color.ui=always undertaker --no-color --no-notes base..bad >out &&
	! grep "$ESC" out &&
	test_expect_code 1 git -c color.ui=always undertaker --color=never --no-notes base..bad >out &&
	! grep "$ESC" out &&
	test_expect_code 1 git undertaker --color=auto --no-notes base..bad >out &&
	! grep "$ESC" out &&
	test_expect_code 129 git undertaker --color=sometimes base..bad 2>err &&
	grep "color" err
'

test_expect_success 'git undertaker: notes and a replayed note stay plain' '
	test_expect_code 1 git undertaker base..bad >/dev/null &&
	git notes --ref=undertaker show bad >note &&
	! grep "$ESC" note &&
	test_expect_code 1 git undertaker --color base..bad >out &&
	grep "^b.c:2: $ESC\[31mdead$ESC\[m block B1" out
'

test_expect_success SPATCH 'git backport: the diff coloured as git diff colours it, only when asked' '
	write_new_api_rule rules/0001-api.cocci &&
	write_file drv.c <<-\EOF &&
	void f(void) { foo_new_api(1); }
	EOF
	git add drv.c && test_tick && git commit -q -m drv &&
	git backport --rules=rules HEAD >plain &&
	! grep "$ESC" plain &&
	git -c color.backport=always backport --rules=rules HEAD >out &&
	grep "^$ESC\[1mdiff --git a/drv.c b/drv.c$ESC\[m$" out &&
	grep "^$ESC\[36m@@ .*$ESC\[m$" out &&
	grep "^$ESC\[31m-void f(void) { foo_new_api(1); }$ESC\[m$" out &&
	grep "^$ESC\[32m+void f(void) { foo_old_api(1, 0); }$ESC\[m$" out &&
	sed "s/$ESC\[[0-9]*m//g" out >stripped &&
	test_cmp plain stripped &&
	git -c color.ui=always backport --no-color --rules=rules HEAD >out &&
	test_cmp plain out
'

test_done
