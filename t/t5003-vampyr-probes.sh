#!/bin/sh
test_description='git vampyr --expand: the compiler probes of kconfig answered once per tree and compiler'
. ./test-lib.sh

# A fake compiler, first in PATH, that logs each call: -fbad is an unknown
# option, -o gets an object file naming the compiler's version, and a link
# (no -c) finds its library only in fakelib/, which -print-search-dirs names.
write_fake_gcc () {
	write_file fakebin/gcc <<-EOF &&
	#!/bin/sh
	echo "\$*" >>"$PWD/gcc.log"
	case " \$* " in *" --version "*) echo "fakecc $1"; exit 0 ;; esac
	case " \$* " in *" -print-search-dirs "*) echo "libraries: =$PWD/fakelib/"; exit 0 ;; esac
	case " \$* " in *" -c "*) ;; *)
		test -e "$PWD/fakelib/libc.a" && exit 0
		echo "cannot find -lc" >&2; exit 1 ;;
	esac
	out= prev=
	for a
	do
		test "\$prev" = -o && out=\$a
		prev=\$a
	done
	case " \$* " in *" $2 "*) echo "error: unknown option $2" >&2; exit 1 ;; esac
	test -z "\$out" || echo "object of fakecc $1" >"\$out"
	EOF
	chmod +x fakebin/gcc
}

test_expect_success 'setup' '
	write_fake_gcc 1.0 -fbad &&
	mkdir fakelib &&
	write_file Kconfig <<-\EOF &&
	mainmenu "probes"
	# As the kernel'"'"'s scripts/Kconfig.include has them.
	if-success = $(shell,{ $(1); } >/dev/null 2>&1 && echo "$(2)" || echo "$(3)")
	success = $(if-success,$(1),y,n)
	cc-option = $(success,trap "rm -rf .tmp_$$" EXIT; mkdir .tmp_$$; gcc -Werror $(1) -c -x c /dev/null -o .tmp_$$/tmp.o)
	cc-object = $(shell,mkdir -p .tmp_o_$$; gcc -c -x c /dev/null -o .tmp_o_$$/o.o && cat .tmp_o_$$/o.o; rm -rf .tmp_o_$$)
	cc-can-link = $(success,echo "int main;" | gcc -x c - -o /dev/null)
	config CC_VERSION_TEXT
		string
		default "$(shell,gcc --version)"
	config CC_HAS_GOOD
		def_bool $(cc-option,-fgood)
	config CC_HAS_BAD
		def_bool $(cc-option,-fbad)
	config CC_OBJECT
		string
		default "$(cc-object)"
	config CC_CAN_LINK
		def_bool $(cc-can-link)
	config A
		bool "a"
		depends on CC_HAS_GOOD
	EOF
	write_file foo.c <<-\EOF &&
	#ifdef CONFIG_A
	int a;
	#endif
	#ifndef CONFIG_A
	int not_a;
	#endif
	EOF
	git add . &&
	test_tick &&
	git commit -q -m base &&
	git config vampyr.kconfig "\"$KCONF\" --alldefconfig Kconfig" &&
	PATH="$PWD/fakebin:$PATH" &&
	export PATH &&
	# Every kconfig run runs: the probe cache is under test here, not the
	# expansions kept from run to run (t5006).
	VAMPYR_NO_EXPAND_CACHE=1 &&
	export VAMPYR_NO_EXPAND_CACHE
'

# The four probes, and what the link depends on asked of the compiler
# (the link itself ends in /dev/null).
probes="--version
-Werror -fgood -c -x c /dev/null -o <out>
-Werror -fbad -c -x c /dev/null -o <out>
-c -x c /dev/null -o <out>
-x c - -o /dev/null -v -H -Wl,--trace
-print-search-dirs"

# The compiler's calls, with each -o path as <out>.
calls () {
	sed -e "s| -o \.tmp[^ ]*| -o <out>|" gcc.log | sort
}

test_expect_success KCONF 'the first run asks each probe once, whatever the number of kconfig runs' '
	rm -f gcc.log &&
	VAMPYR_TEST_PROBES="$PWD/probes.log" git vampyr --no-notes --expand -o out1 >actual &&
	grep "^after expansion: 2 of 2 blocks compiled" actual &&
	# The link too, once in three kconfig runs, with what it depends on.
	test $(grep -c " -o /dev/null\$" gcc.log) = 1 &&
	calls | grep -v "/dev/null\$" >asked &&
	printf "%s\n" "$probes" | sort >expect &&
	test_cmp expect asked &&
	test $(grep -c "^miss gcc\$" probes.log) = 5 &&
	test $(grep -c "^hit gcc\$" probes.log) = 10 &&
	! grep "^run gcc\$" probes.log &&
	! grep "^CONFIG_CC_CAN_LINK=y" out1/config-1.expanded &&
	grep "^CONFIG_CC_VERSION_TEXT=\"fakecc 1.0\"\$" out1/config-1.expanded &&
	grep "^CONFIG_CC_OBJECT=\"object of fakecc 1.0\"\$" out1/config-1.expanded &&
	grep "^CONFIG_CC_HAS_GOOD=y\$" out1/config-1.expanded &&
	! grep "^CONFIG_CC_HAS_BAD=y" out1/config-1.expanded
'

test_expect_success KCONF 'the next run asks the compiler nothing; the same configurations as without the cache' '
	rm -f gcc.log probes.log &&
	VAMPYR_TEST_PROBES="$PWD/probes.log" git vampyr --no-notes --expand -o out2 >actual &&
	test $(grep -c "^hit gcc\$" probes.log) = 15 &&
	! grep "^miss" probes.log &&
	! test -e gcc.log &&
	rm -f gcc.log &&
	VAMPYR_NO_PROBE_CACHE=1 git vampyr --no-notes --expand -o out3 >actual &&
	test $(wc -l <gcc.log) = 15 &&
	for c in config-1 config-2
	do
		test_cmp out1/$c.expanded out2/$c.expanded &&
		test_cmp out1/$c.expanded out3/$c.expanded || return 1
	done &&
	# Written whole or not at all: no temporary entry stays.
	cache=$(echo .git/vampyr/trees/*/.vampyr-probes) &&
	test $(ls "$cache" | grep -vc "^bin\$") = 5 &&
	test $(ls -a "$cache" | grep -c tmp) = 0
'

test_expect_success KCONF 'a library that appears where the compiler looks for it: the link is asked again' '
	>fakelib/libc.a &&
	rm -f gcc.log probes.log &&
	VAMPYR_TEST_PROBES="$PWD/probes.log" git vampyr --no-notes --expand -o out5 >actual &&
	test $(grep -c "^miss gcc\$" probes.log) = 1 &&
	test $(grep -c " -o /dev/null\$" gcc.log) = 1 &&
	grep "^CONFIG_CC_CAN_LINK=y\$" out5/config-1.expanded &&
	rm -f probes.log &&
	VAMPYR_TEST_PROBES="$PWD/probes.log" git vampyr --no-notes --expand -o out6 >actual &&
	! grep "^miss" probes.log &&
	test_cmp out5/config-1.expanded out6/config-1.expanded
'

test_expect_success KCONF 'another compiler is asked again, and its answers count' '
	write_fake_gcc 2.0 -fgood &&
	rm -f gcc.log probes.log &&
	VAMPYR_TEST_PROBES="$PWD/probes.log" git vampyr --no-notes --expand -o out4 >actual &&
	test $(grep -c "^miss gcc\$" probes.log) = 5 &&
	calls | grep -v "/dev/null\$" >asked &&
	test_cmp expect asked &&
	grep "^this toolchain rules out 1 block" actual &&
	grep "^CONFIG_CC_VERSION_TEXT=\"fakecc 2.0\"\$" out4/config-1.expanded &&
	grep "^CONFIG_CC_OBJECT=\"object of fakecc 2.0\"\$" out4/config-1.expanded &&
	grep "^CONFIG_CC_HAS_BAD=y\$" out4/config-1.expanded &&
	! grep "^CONFIG_CC_HAS_GOOD=y" out4/config-1.expanded
'

test_expect_success KCONF 'a cross compiler on PATH goes through vampyr-cc too, and its link goes once it is gone' '
	cp fakebin/gcc fakebin/xyz-linux-gnu-gcc &&
	git vampyr --no-notes --expand -o out9 >actual &&
	bin=$(echo .git/vampyr/trees/*/.vampyr-probes/bin) &&
	test -L "$bin/xyz-linux-gnu-gcc" &&
	test -L "$bin/gcc" &&
	rm fakebin/xyz-linux-gnu-gcc &&
	git vampyr --no-notes --expand -o out10 >actual &&
	! test -L "$bin/xyz-linux-gnu-gcc" &&
	test -L "$bin/gcc"
'

test_done
