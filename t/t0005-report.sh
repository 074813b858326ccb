#!/bin/sh
test_description='report helpers: JSON writer, progress on a terminal only, colours'
. ./test-lib.sh

command -v script >/dev/null && test_set_prereq TTY

# Runs a command with a terminal on stdin/stdout/stderr, output (CR kept) in tty.out.
run_tty () {
	script -qec "$*" /dev/null >tty.out 2>&1
}

test_expect_success 'the JSON writer nests, separates and escapes' '
	test-report json >actual &&
	cat >expect <<-\EOF &&
	{"file":"drivers/a \"b\".c","line":42,"dead":true,"arch":null,"seconds":1.235,"inner":{"a":[1,2]},"blocks":["B0",{"tab":"a\tb\n","none":null},[]],"arches":["x86","q\""],"empty":[]}
	EOF
	test_cmp expect actual
'

test_expect_success 'the JSON reader takes a string member back, and checks the whole object' '
	test-report json >doc &&
	test-report json-get file <doc >actual &&
	echo "1 drivers/a \"b\".c" >expect &&
	test_cmp expect actual &&
	cat >in <<-\EOF &&
	{"a":{"status":"inner"},"b":[1,-2.5e3,true,null,"x\"y"],"status":"new"}
	{ "status" : "fixed" , "status":"again" }
	{"status":"\u00e9\ud83d\ude00\n\/"}
	{"k":1}
	{"status":1}
	{"status":"new"
	{"status":"new"} trailing
	{"status":"new",}
	[1]
	{"status":"a	b"}
	{"x":tru}
	{"status":"\q"}
	EOF
	test-report json-get status <in >actual &&
	cat >expect <<-\EOF &&
	1 new
	1 fixed
	1 =C3=A9=F0=9F=98=80=0A/
	0
	0
	-1
	-1
	-1
	-1
	-1
	-1
	-1
	EOF
	test_cmp expect actual &&
	printf "{\"status\":\"new\"}\n" | test-report json-get "" >actual &&
	echo 0 >expect &&
	test_cmp expect actual
'

test_expect_success 'no progress when stderr is not a terminal' '
	test-report progress 20 2>err &&
	test_must_be_empty err
'

test_expect_success TTY 'progress on a terminal, as git shows it' '
	run_tty test-report progress 20 &&
	tr "\r" "\n" <tty.out >lines &&
	grep "^Checking commits:  45% (9/20)$" lines &&
	grep "^Checking commits:   5% (1/20)$" lines &&
	grep "^Checking commits: 100% (20/20), done.$" lines
'

test_expect_success TTY 'no progress with -q, even on a terminal' '
	run_tty test-report progress 20 -q &&
	! grep Checking tty.out
'

test_expect_success 'colours: off when not a terminal, on with color.ui=always' '
	test-report color >actual &&
	printf "off\ndead\n" >expect && test_cmp expect actual &&
	git config color.ui always &&
	test-report color >actual &&
	printf "on\n\033[31mdead\033[m\n" >expect && test_cmp expect actual
'

test_expect_success 'colours: color.undertaker wins over color.ui; NO_COLOR wins over both' '
	git config color.undertaker never &&
	test-report color >actual && head -1 actual >first && echo off >expect && test_cmp expect first &&
	git config color.undertaker true &&
	NO_COLOR=1 test-report color >actual && head -1 actual >first && test_cmp expect first &&
	git config --unset color.undertaker && git config --unset color.ui
'

test_expect_success TTY 'colours: auto on a terminal, off for TERM=dumb' '
	run_tty env TERM=xterm test-report color &&
	grep "^on" tty.out &&
	run_tty env TERM=dumb test-report color &&
	grep "^off" tty.out &&
	run_tty env NO_COLOR=1 test-report color &&
	grep "^off" tty.out
'

test_done
