#!/bin/sh
test_description='git vampyr --expand: the same answer at any -j, when the tree'"'"'s build writes fixed paths'
. ./test-lib.sh

# The Makefile does what Xen's does: it writes the fragment to a fixed
# .allconfig.tmp, waits (so that runs at once overlap), and runs kconfig on
# that file; it also appends to runs.log, a tracked file, in place. Runs that
# shared one tree would read each other's fragment.
test_expect_success 'setup' '
	write_file Kconfig <<-\EOF &&
	mainmenu "jobs"
	config A
		bool "a"
	config B
		bool "b"
		depends on !A
	config C
		bool "c"
	EOF
	write_file foo.c <<-\EOF &&
	#ifdef CONFIG_A
	int a;
	#endif
	#ifdef CONFIG_B
	int b;
	#endif
	#ifdef CONFIG_C
	int c;
	#endif
	EOF
	printf "alldefconfig:\n" >Makefile &&
	printf "\tcp \"\$(KCONFIG_ALLCONFIG)\" .allconfig.tmp\n" >>Makefile &&
	printf "\techo \"\$(notdir \$(KCONFIG_ALLCONFIG))\" >>runs.log\n" >>Makefile &&
	printf "\tsleep 1\n" >>Makefile &&
	printf "\tKCONFIG_ALLCONFIG=.allconfig.tmp \"\$(KCONF)\" --alldefconfig Kconfig\n" >>Makefile &&
	echo committed >runs.log &&
	git add . &&
	test_tick &&
	git commit -q -m base &&
	# Each run runs kconfig: nothing kept from the run before (t5006).
	VAMPYR_NO_EXPAND_CACHE=1 &&
	export VAMPYR_NO_EXPAND_CACHE
'

test_expect_success KCONF '-j1 and -j4 give the same output and the same expanded configurations' '
	git vampyr --no-notes --expand -j 1 -o out >actual1 &&
	mv out out1 &&
	git vampyr --no-notes --expand -j 4 -o out >actual4 &&
	mv out out4 &&
	grep "^2 configurations compile 3 of 3" actual1 &&
	grep "^after expansion: 3 of 3 blocks compiled" actual1 &&
	test_cmp actual1 actual4 &&
	for f in out1/*
	do
		test_cmp "$f" "out4/${f#out1/}" || return 1
	done &&
	test -f out4/config-1.expanded &&
	! test_cmp out4/config-1.expanded out4/config-2.expanded
'

test_expect_success KCONF 'no run writes into the cached tree or sees another run'"'"'s files' '
	for log in .git/vampyr/trees/*/runs.log
	do
		head -n 1 "$log" >first &&
		echo committed >expect &&
		test_cmp expect first &&
		! grep "^config-" "$log" || return 1
	done &&
	mkdir tmp &&
	TMPDIR="$PWD/tmp" git vampyr --no-notes --expand -j 4 -o out >actual &&
	test_cmp actual1 actual &&
	ls tmp >left &&
	test_must_be_empty left &&
	# The copies are kept, made equal to the cache before each run: each
	# holds what its last run appended to runs.log, and nothing older.
	for log in .git/vampyr/trees/*.slots/*/runs.log
	do
		test $(grep -c "^config-" "$log") -le 1 || return 1
	done
'

test_done
