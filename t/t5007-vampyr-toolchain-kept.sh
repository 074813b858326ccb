#!/bin/sh
test_description='git vampyr --expand: the toolchain'"'"'s kconfig run kept while the programs on PATH and what the compiler read stay the same'
. ./test-lib.sh

# A fake compiler first in PATH: --version names its version, a compile
# succeeds, a link (no -c) finds its library only in fakelib/, which
# -print-search-dirs names.
write_fake_gcc () {
	write_file fakebin/gcc <<-EOF &&
	#!/bin/sh
	case " \$* " in *" --version "*) echo "fakecc $1"; exit 0 ;; esac
	case " \$* " in *" -print-search-dirs "*) echo "libraries: =$PWD/fakelib/"; exit 0 ;; esac
	case " \$* " in *" -c "*) exit 0 ;; esac
	test -e "$PWD/fakelib/libc.a"
	EOF
	chmod +x fakebin/gcc
}

test_expect_success 'setup' '
	write_fake_gcc 1.0 &&
	mkdir fakelib &&
	write_file Kconfig <<-\EOF &&
	mainmenu "kept toolchain"
	if-success = $(shell,{ $(1); } >/dev/null 2>&1 && echo "$(2)" || echo "$(3)")
	success = $(if-success,$(1),y,n)
	config CC_VERSION_TEXT
		string
		default "$(shell,gcc --version)"
	config CC_HAS_GOOD
		def_bool $(success,gcc -Werror -fgood -c -x c /dev/null -o /dev/null)
	config CC_CAN_LINK
		def_bool $(success,echo "int main;" | gcc -x c - -o /dev/null)
	config A
		bool "a"
		depends on CC_HAS_GOOD
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
	git commit -q -m base &&
	# A PATH of directories no other test or tool writes into while this
	# one runs: a file that appears in any of them is a new toolchain.
	PATH="$PWD/fakebin:$UT_BUILD_DIR/bin:/usr/bin:/bin" &&
	export PATH
'

# kconfig runs of the toolchain (its fragment of every symbol =y).
toolchain_runs () {
	grep -c "/\.vampyr-yes\.[0-9]*\.config\$" runs.log 2>/dev/null || :
}

test_expect_success KCONF 'the first run runs the toolchain'"'"'s kconfig, the next none' '
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out1 >actual1 2>err1 &&
	test $(toolchain_runs) = 1 &&
	! grep "^CONFIG_CC_CAN_LINK=y" out1/config-1.expanded &&
	grep "^CONFIG_CC_VERSION_TEXT=\"fakecc 1.0\"\$" out1/config-1.expanded &&
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out2 >actual2 2>err2 &&
	! test -e runs.log &&
	grep "^vampyr: the toolchain.s kconfig run as before (kept in .*/\.vampyr-toolchain/" err2 &&
	sed -e s/out2/out1/ actual2 >actual2.out1 &&
	test_cmp actual1 actual2.out1 &&
	for c in config-1 config-2
	do
		test_cmp out1/$c.expanded out2/$c.expanded || return 1
	done
'

test_expect_success KCONF 'a library where the compiler looks for it: the toolchain runs again' '
	>fakelib/libc.a &&
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out3 2>err3 &&
	test $(toolchain_runs) = 1 &&
	grep "^CONFIG_CC_CAN_LINK=y\$" out3/config-1.expanded &&
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out4 2>err4 &&
	! test -e runs.log
'

test_expect_success KCONF 'another compiler, or a new program on PATH: the toolchain runs again' '
	write_fake_gcc 2.0 &&
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out5 2>err5 &&
	test $(toolchain_runs) = 1 &&
	grep "^CONFIG_CC_VERSION_TEXT=\"fakecc 2.0\"\$" out5/config-1.expanded &&
	write_file fakebin/pahole <<-\EOF &&
	#!/bin/sh
	EOF
	chmod +x fakebin/pahole &&
	rm -f runs.log &&
	git vampyr --no-notes --expand -o out6 2>err6 &&
	test $(toolchain_runs) = 1
'

test_expect_success KCONF 'nothing kept without the probe cache, or with VAMPYR_NO_EXPAND_CACHE=1' '
	rm -f runs.log &&
	VAMPYR_NO_PROBE_CACHE=1 git vampyr --no-notes --expand -o out7 2>err7 &&
	VAMPYR_NO_PROBE_CACHE=1 git vampyr --no-notes --expand -o out8 2>err8 &&
	test $(toolchain_runs) = 2 &&
	rm -f runs.log &&
	VAMPYR_NO_EXPAND_CACHE=1 git vampyr --no-notes --expand -o out9 2>err9 &&
	test $(toolchain_runs) = 1 &&
	test_cmp out6/config-1.expanded out9/config-1.expanded
'

test_done
