#!/bin/sh
test_description='git undertaker: the note written and read back, each status word both ways'
. ./test-lib.sh

# test-unote writes a --show=all note and its data note with one defect of
# each status, then reads every line back. The expected bytes are the notes'
# format as git log shows it and --format=json prints it: a status word
# renamed in the writer fails the first comparison, a reader that no longer
# knows a word (the text suffix or the JSON member) fails the read-back.
test_expect_success 'a note of every status round-trips, text and JSON' '
	test-unote >actual &&
	cat >expect <<-\EOF &&
	dir/a [b].c:1: dead block B1 (kconfig, global): #ifdef CONFIG_S1 /* "[new]" */
	dir/a [b].c:2: dead block B2 (kconfig, global): #ifdef CONFIG_S2 /* "[new]" */ [fixed]
	dir/a [b].c:3: dead block B3 (kconfig, global): #ifdef CONFIG_S3 /* "[new]" */ [unchanged]
	dir/a [b].c:4: dead block B4 (kconfig, global): #ifdef CONFIG_S4 /* "[new]" */ [accepted]
	
	Undertaker-Show: all
	Undertaker-Model: model-key
	Undertaker: 1 new, 1 fixed, 1 accepted
	--
	Undertaker-Note: 8d22f31423ebd950bd6b330638f778ff9788e20f
	{"path":"dir/a [b].c","line":1,"end_line":1,"block":1,"kind":"dead","cause":"kconfig","scope":"global","arches":[],"directive":"#ifdef CONFIG_S1 /* \"[new]\" */","symbols":["CONFIG_S"],"status":"new"}
	{"path":"dir/a [b].c","line":2,"end_line":2,"block":2,"kind":"dead","cause":"kconfig","scope":"global","arches":[],"directive":"#ifdef CONFIG_S2 /* \"[new]\" */","symbols":["CONFIG_S"],"status":"fixed"}
	{"path":"dir/a [b].c","line":3,"end_line":3,"block":3,"kind":"dead","cause":"kconfig","scope":"global","arches":[],"directive":"#ifdef CONFIG_S3 /* \"[new]\" */","symbols":["CONFIG_S"],"status":"unchanged"}
	{"path":"dir/a [b].c","line":4,"end_line":4,"block":4,"kind":"dead","cause":"kconfig","scope":"global","arches":[],"directive":"#ifdef CONFIG_S4 /* \"[new]\" */","symbols":["CONFIG_S"],"status":"accepted"}
	--
	text new new
	text fixed fixed
	text unchanged unchanged
	text accepted accepted
	json new new
	json fixed fixed
	json unchanged unchanged
	json accepted accepted
	current: 1 new
	EOF
	test_cmp expect actual
'

test_done
