#!/bin/sh
test_description='git vampyr --expand: a fragment expanded before is not expanded again, under the same tree, environment and toolchain'
. ./test-lib.sh

# The Makefile logs each kconfig run (its fragment's name) outside the tree;
# the toolchain is a file outside the tree that a $(shell,...) reads.
test_expect_success 'setup' '
	echo 1.0 >toolchain &&
	write_file Kconfig <<-EOF &&
	mainmenu "kept"
	config TOOLCHAIN
		string
		default "\$(shell,cat '"'"'$PWD/toolchain'"'"')"
	config A
		bool "a"
	config B
		bool "b"
		depends on !A
	EOF
	write_file foo.c <<-\EOF &&
	#ifdef CONFIG_A
	int a;
	#endif
	#ifdef CONFIG_B
	int b;
	#endif
	EOF
	printf "alldefconfig:\n" >Makefile &&
	printf "\techo \"\$(KCONFIG_ALLCONFIG)\" >>\"$PWD/runs.log\"\n" >>Makefile &&
	printf "\t\"\$(KCONF)\" --alldefconfig Kconfig\n" >>Makefile &&
	git add Kconfig foo.c Makefile &&
	test_tick &&
	git commit -q -m base
'

# kconfig runs of the fragments (the toolchain run aside).
fragment_runs () {
	grep -vc "/\.vampyr-yes\.[0-9]*\.config\$" runs.log || :
}

test_expect_success KCONF 'the first run expands each configuration' '
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out1 >actual1 2>err1 &&
	grep "^after expansion: 2 of 2 blocks compiled" actual1 &&
	test $(fragment_runs) = 2 &&
	test $(grep -c "/\.vampyr-yes\.[0-9]*\.config\$" runs.log) = 1 &&
	test $(grep -c "^vampyr: expanding config-" err1) = 2 &&
	! grep "expanded as before" err1
'

test_expect_success KCONF 'the next run takes them as kept, the same byte for byte, and checks them again' '
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out2 >actual2 2>err2 &&
	test $(fragment_runs) = 0 &&
	test $(grep -c "/\.vampyr-yes\.[0-9]*\.config\$" runs.log) = 1 &&
	! grep "^vampyr: expanding" err2 &&
	test $(grep -c "^vampyr: config-[12] expanded as before (.*kept in .*/\.vampyr-expanded/" err2) = 2 &&
	sed -e s/out2/out1/ actual2 >actual2.out1 &&
	test_cmp actual1 actual2.out1 &&
	for c in config-1 config-2
	do
		test_cmp out1/$c.config out2/$c.config &&
		test_cmp out1/$c.expanded out2/$c.expanded || return 1
	done &&
	grep "^CONFIG_TOOLCHAIN=\"1.0\"\$" out2/config-1.expanded
'

test_expect_success KCONF 'VAMPYR_NO_EXPAND_CACHE=1 runs kconfig on each, to the same configurations' '
	rm -f runs.log &&
	VAMPYR_NO_EXPAND_CACHE=1 git vampyr --no-notes --expand -o out3 >actual3 2>err3 &&
	test $(fragment_runs) = 2 &&
	sed -e s/out3/out1/ actual3 >actual3.out1 &&
	test_cmp actual1 actual3.out1 &&
	for c in config-1 config-2
	do
		test_cmp out1/$c.expanded out3/$c.expanded || return 1
	done
'

test_expect_success KCONF 'another toolchain, or another environment, expands again' '
	echo 2.0 >toolchain &&
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out4 >actual4 2>err4 &&
	test $(fragment_runs) = 2 &&
	grep "^CONFIG_TOOLCHAIN=\"2.0\"\$" out4/config-1.expanded &&
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out5 2>err5 &&
	test $(fragment_runs) = 0 &&
	rm -f runs.log &&
	VAMPYR_KEPT_TEST=other git vampyr --no-notes --expand -o out6 2>err6 &&
	test $(fragment_runs) = 0 &&
	KEPT_TEST=other git vampyr --no-notes --expand -o out7 2>err7 &&
	test $(fragment_runs) = 2
'

test_expect_success KCONF 'a kept entry whose key differs is no answer: kconfig runs' '
	for f in .git/vampyr/trees/*/.vampyr-expanded/*
	do
		sed -e "s/^cmd /cmd x/" "$f" >"$f.new" && mv "$f.new" "$f" || return 1
	done &&
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out8 2>err8 &&
	test $(fragment_runs) = 2 &&
	test_cmp out4/config-1.expanded out8/config-1.expanded
'

test_done
