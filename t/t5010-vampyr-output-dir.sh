#!/bin/sh
test_description='git vampyr -o: stale fragments of an earlier run go, files of others stay, no half-written fragment'
. ./test-lib.sh

test_expect_success 'setup: three blocks that need three configurations, then one' '
	write_file Kconfig <<-\EOF &&
	choice
		prompt "mode"
	config MODE_A
		bool "a"
	config MODE_B
		bool "b"
	config MODE_C
		bool "c"
	endchoice
	EOF
	write_file m.c <<-\EOF &&
	#ifdef CONFIG_MODE_A
	int a;
	#endif
	#ifdef CONFIG_MODE_B
	int b;
	#endif
	#ifdef CONFIG_MODE_C
	int c;
	#endif
	EOF
	git add . && test_tick && git commit -q -m three && git tag three &&
	write_file m.c <<-\EOF &&
	#ifdef CONFIG_MODE_A
	int a;
	#endif
	EOF
	git add . && test_tick && git commit -q -m one && git tag one &&
	for i in $(seq 120); do
		printf "config S%d\n\tbool \"s%d\"\n" $i $i || return 1
	done >Kconfig &&
	printf "config BIG\n\tbool \"big\"\n\tdepends on S1" >>Kconfig &&
	for i in $(seq 2 120); do printf " && S%d" $i || return 1; done >>Kconfig &&
	echo >>Kconfig &&
	printf "#ifdef CONFIG_BIG\nint big;\n#endif\n" >m.c &&
	git add . && test_tick && git commit -q -m big && git tag big
'

test_expect_success 'a run writes its fragments and a manifest naming them' '
	git vampyr --no-notes -o out three >stdout &&
	ls out >actual &&
	printf "config-1.config\nconfig-2.config\nconfig-3.config\n" >expect &&
	test_cmp expect actual &&
	printf "config-1.config\nconfig-2.config\nconfig-3.config\n" >expect &&
	test_cmp expect out/.vampyr-manifest
'

test_expect_success 'a second run removes the fragments it does not write again, and only those' '
	echo "CONFIG_MINE=y" >out/config-9.config &&
	echo mine >out/notes.txt &&
	git vampyr --no-notes -o out one >stdout &&
	grep "^1 configuration compiles 1 of 1 block" stdout &&
	ls out >actual &&
	printf "config-1.config\nconfig-9.config\nnotes.txt\n" >expect &&
	test_cmp expect actual &&
	echo config-1.config >expect && test_cmp expect out/.vampyr-manifest &&
	echo "CONFIG_MINE=y" >expect && test_cmp expect out/config-9.config
'

test_expect_success 'a manifest naming a path outside the directory is not followed' '
	echo precious >precious &&
	printf "../precious\n/etc/hostname\nconfig-1.config\n" >out/.vampyr-manifest &&
	git vampyr --no-notes -o out one >stdout &&
	test -f precious &&
	echo config-1.config >expect && test_cmp expect out/.vampyr-manifest
'

test_expect_success 'a full disk leaves no empty or partial fragment' '
	git vampyr --no-notes -o roomy big >/dev/null &&
	test $(wc -c <roomy/config-1.config) -gt 1024 &&
	mkdir full &&
	# Files of 1 KiB at most; what the command prints goes through a pipe.
	(ulimit -f 1 && trap "" XFSZ &&
	 git vampyr --no-notes -o full big 2>&1 >/dev/null; echo "exit $?") | cat >err &&
	grep "cannot write full/config-1.config: File too large" err &&
	grep "^exit 128$" err &&
	ls full >actual &&
	test_must_be_empty actual &&
	(ulimit -f 0 && trap "" XFSZ &&
	 git vampyr --no-notes -o full three 2>&1 >/dev/null; echo "exit $?") | cat >err &&
	grep "^exit 128$" err &&
	ls full >actual &&
	test_must_be_empty actual
'

test_expect_success 'a path with a control character is quoted as git quotes it, in the text and the note' '
	git init -q quoted &&
	(
		cd quoted &&
		printf "config Q\n\tbool \"q\"\n" >Kconfig &&
		printf "#ifdef CONFIG_Q\nint q;\n#endif\n" >"we$(printf "\t")ird.c" &&
		git add . && test_tick && git commit -q -m quoted &&
		git vampyr -o out HEAD >stdout &&
		grep "^	\"we\\\\tird.c\":1 B0$" stdout &&
		git notes --ref=vampyr show HEAD >note &&
		grep "^  covers \"we\\\\tird.c\":1 B0$" note &&
		! grep "$(printf "\t")ird" note
	)
'

test_done
