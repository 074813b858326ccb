#!/bin/sh
test_description='git undertaker: defconfig lines the tree'\''s kconfig would not keep (dropped), against conf'
. ./test-lib.sh

# The lines of defconfig $1 (at HEAD) that conf --olddefconfig does not keep:
# a bool/tristate whose value differs in the .config it writes (not set
# counts as n), an int/hex/string whose line is not in it as written.
cat >kept.awk <<\EOF
NR == FNR { if ($0 ~ /^CONFIG_/) { i = index($0, "="); v[substr($0, 1, i - 1)] = substr($0, i + 1) } next }
/^# CONFIG_[A-Za-z0-9_]* is not set$/ { n = $2; val = "n" }
/^CONFIG_/ { i = index($0, "="); n = substr($0, 1, i - 1); val = substr($0, i + 1) }
/^CONFIG_|^# CONFIG_/ { got = (n in v) ? v[n] : "n"; if (got != val) print FNR }
EOF
conf_dropped () {
	rm -rf conftree && mkdir conftree &&
	git archive HEAD | tar -x -C conftree &&
	cp "$1" conftree/.config &&
	(cd conftree && srctree=. KCONFIG_CONFIG=.config "$KCONF" --olddefconfig Kconfig) >/dev/null 2>&1 &&
	awk -f kept.awk conftree/.config "$1"
}

# Our dropped lines of defconfig $1, by number.
ours_dropped () {
	git undertaker --no-notes --all HEAD -- "$1" >ours.out
	sed -n "s/^$(echo "$1" | sed "s,/,\\\\/,g"):\([0-9]*\): dropped .*/\1/p" ours.out
}

test_expect_success 'setup: a tree whose defconfig holds lines of every shape' '
	write_file Kconfig <<-\EOF &&
	config A
		bool "a"
	config X
		bool "x"
		depends on A
	config DEFY
		bool "defy"
		default y
	config Z
		bool "z"
		depends on DEFY
	config S
		bool "s"
		select T
		select W
	config T
		bool "t"
	config W
		bool "w"
		depends on A
	choice
		prompt "pick"
		default C1
	config C1
		bool "c1"
	config C2
		bool "c2"
	config C3
		bool "c3"
		depends on A
	endchoice
	config N
		int "n"
		range 1 10
		default 3
	config H
		hex "h"
		default 0x10
	config STR
		string "str"
	config HIDDEN
		bool
		default y
	config EXP
		bool "exp" if A
	config MODULES
		bool "modules"
		modules
	config TRI
		tristate "tri"
	config BY_DEFAULT
		bool "by default"
		default y if DEFY
	config NOPE
		bool "nope"
	config HB
		hex "hb"
		depends on NOPE
		default H
	config HN
		int
		default 4
	choice
		prompt "optional"
		optional
	config O1
		bool "o1"
	config O2
		bool "o2"
		depends on A
	endchoice
	EOF
	write_file configs/b_defconfig <<-\EOF &&
	CONFIG_X=y
	CONFIG_Z=y
	CONFIG_S=y
	# CONFIG_T is not set
	CONFIG_W=y
	CONFIG_C1=y
	CONFIG_C2=y
	CONFIG_N=20
	CONFIG_N=5
	CONFIG_H=zz
	CONFIG_STR=abc
	CONFIG_HIDDEN=n
	CONFIG_EXP=y
	CONFIG_DEFY=m
	CONFIG_TRI=m
	# CONFIG_BY_DEFAULT is not set
	CONFIG_HB=0x20
	EOF
	write_file configs/c_defconfig <<-\EOF &&
	CONFIG_A=y
	CONFIG_X=y
	CONFIG_EXP=y
	# CONFIG_C1 is not set
	CONFIG_C3=y
	CONFIG_MODULES=y
	CONFIG_TRI=m
	CONFIG_N=10
	CONFIG_STR="abc"
	CONFIG_O1=y
	CONFIG_O2=y
	EOF
	write_file configs/d_defconfig <<-\EOF &&
	# CONFIG_C1 is not set
	# CONFIG_DEFY is not set
	CONFIG_Z=y
	CONFIG_BY_DEFAULT=y
	CONFIG_HN=4
	CONFIG_O1=y
	CONFIG_O2=y
	EOF
	git add Kconfig configs && test_tick && git commit -q -m base && git tag base
'

test_expect_success 'each dropped line, with the symbols that drop it' '
	test_expect_code 1 git undertaker --no-notes --all HEAD >out &&
	cat >expect <<-\EOF &&
	configs/b_defconfig:1: dropped (kconfig, global): CONFIG_X=y (kconfig makes it n: CONFIG_A)
	configs/b_defconfig:4: dropped (kconfig, global): # CONFIG_T is not set (kconfig makes it y: CONFIG_S)
	configs/b_defconfig:6: dropped (kconfig, global): CONFIG_C1=y (kconfig makes it n: CONFIG_C2)
	configs/b_defconfig:8: dropped (kconfig, global): CONFIG_N=20 (set again at line 9)
	configs/b_defconfig:10: dropped (kconfig, global): CONFIG_H=zz (not a hex number)
	configs/b_defconfig:11: dropped (kconfig, global): CONFIG_STR=abc (not a quoted string)
	configs/b_defconfig:12: dropped (kconfig, global): CONFIG_HIDDEN=n (kconfig makes it y)
	configs/b_defconfig:13: dropped (kconfig, global): CONFIG_EXP=y (kconfig makes it n: CONFIG_A)
	configs/b_defconfig:14: dropped (kconfig, global): CONFIG_DEFY=m (not a bool value)
	configs/b_defconfig:15: dropped (kconfig, global): CONFIG_TRI=m (kconfig makes it y: CONFIG_MODULES)
	configs/b_defconfig:17: dropped (kconfig, global): CONFIG_HB=0x20 (its prompt never shows: CONFIG_NOPE)
	configs/c_defconfig:10: dropped (kconfig, global): CONFIG_O1=y (kconfig makes it n: CONFIG_O2)
	configs/d_defconfig:1: dropped (kconfig, global): # CONFIG_C1 is not set (kconfig makes it y)
	configs/d_defconfig:3: dropped (kconfig, global): CONFIG_Z=y (kconfig makes it n: CONFIG_DEFY)
	configs/d_defconfig:7: dropped (kconfig, global): CONFIG_O2=y (kconfig makes it n: CONFIG_A, CONFIG_O1)
	EOF
	grep dropped out >actual &&
	test_cmp expect actual &&
	test_expect_code 1 git undertaker --no-notes --all --format=json HEAD >out &&
	grep "\"path\":\"configs/b_defconfig\",\"line\":1,\"end_line\":1,\"kind\":\"dropped\",\"cause\":\"kconfig\"" out &&
	grep "\"kind\":\"dropped\".*\"symbols\":\[\"CONFIG_T\",\"CONFIG_S\"\]" out
'

test_expect_success '--explain: the dependency that fails, the select that overrides, the member that wins, each symbol'"'"'s value and why' '
	test_expect_code 1 git undertaker --no-notes --all --explain HEAD >out &&
	sed -n "/^configs\/b_defconfig:1: /,/^configs\/b_defconfig:8: /p" out >actual &&
	cat >expect <<-\EOF &&
	configs/b_defconfig:1: dropped (kconfig, global): CONFIG_X=y (kconfig makes it n: CONFIG_A)
	    CONFIG_X (Kconfig:3) depends on A
	    CONFIG_A is n: the defconfig does not set it, it has no default, and nothing that is on selects it
	configs/b_defconfig:4: dropped (kconfig, global): # CONFIG_T is not set (kconfig makes it y: CONFIG_S)
	    CONFIG_T is selected by CONFIG_S (Kconfig:14)
	    CONFIG_S is y: line 3 sets it
	configs/b_defconfig:6: dropped (kconfig, global): CONFIG_C1=y (kconfig makes it n: CONFIG_C2)
	    CONFIG_C1 is a member of the choice at Kconfig:21, where CONFIG_C2 is picked
	    CONFIG_C2 is y: line 7 sets it
	configs/b_defconfig:8: dropped (kconfig, global): CONFIG_N=20 (set again at line 9)
	EOF
	test_cmp expect actual &&
	grep -A2 "^configs/b_defconfig:12: " out >actual &&
	cat >expect <<-\EOF &&
	configs/b_defconfig:12: dropped (kconfig, global): CONFIG_HIDDEN=n (kconfig makes it y)
	    CONFIG_HIDDEN (Kconfig:41) has no prompt: only its default and what selects it set it
	    so its default (Kconfig:41) gives CONFIG_HIDDEN y
	EOF
	test_cmp expect actual &&
	grep -A2 "^configs/b_defconfig:15: " out >actual &&
	cat >expect <<-\EOF &&
	configs/b_defconfig:15: dropped (kconfig, global): CONFIG_TRI=m (kconfig makes it y: CONFIG_MODULES)
	    =m needs CONFIG_MODULES
	    CONFIG_MODULES is n: the defconfig does not set it, it has no default, and nothing that is on selects it
	EOF
	test_cmp expect actual &&
	grep -A1 "^configs/b_defconfig:10: " out >actual &&
	grep "^    CONFIG_H (Kconfig:36) is a hex: conf ignores the line" actual &&
	grep -A1 "^configs/d_defconfig:1: " out >actual &&
	grep "^    CONFIG_C1 is the member the choice at Kconfig:21 picks: no other member is set to y" actual &&
	grep -A2 "^configs/d_defconfig:3: " out >actual &&
	grep "^    CONFIG_DEFY is n: line 2 sets it$" actual
'

test_expect_success '--explain follows what implies or selects the symbol that drops a line' '
	write_file Kconfig.more <<-\EOF &&
	config BAR
		bool "bar"
	config QSPI
		bool "qspi"
		imply BAR
	config TINY
		bool "tiny"
		depends on !BAR
	EOF
	echo "source \"Kconfig.more\"" >>Kconfig &&
	write_file configs/e_defconfig <<-\EOF &&
	CONFIG_QSPI=y
	CONFIG_TINY=y
	EOF
	git add Kconfig Kconfig.more configs && test_tick && git commit -q -m implied &&
	test_expect_code 1 git undertaker --no-notes --explain HEAD -- configs/e_defconfig >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) implied
	configs/e_defconfig:2: dropped (kconfig, global): CONFIG_TINY=y (kconfig makes it n: CONFIG_BAR)
	    CONFIG_TINY (Kconfig.more:6) depends on !BAR
	    CONFIG_BAR is y: the defconfig does not set it; CONFIG_QSPI (Kconfig.more:5) implies it
	    CONFIG_QSPI is y: line 1 sets it
	EOF
	test_cmp expect out
'

test_expect_success KCONF 'conf agrees on e_defconfig' '
	conf_dropped configs/e_defconfig >expect &&
	ours_dropped configs/e_defconfig >actual &&
	test_cmp expect actual
'

for d in b c d
do
	test_expect_success KCONF "conf agrees on ${d}_defconfig" '
		conf_dropped configs/${d}_defconfig >expect &&
		ours_dropped configs/${d}_defconfig >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'a Kconfig change that drops an untouched defconfig line is that commit'\''s' '
	sed -i "/^config Z/,/^config S/s/depends on DEFY/depends on DEFY \&\& A/" Kconfig &&
	git add Kconfig && test_tick && git commit -q -m "Z needs A" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) Z needs A
	configs/b_defconfig:2: dropped (kconfig, global): CONFIG_Z=y (kconfig makes it n: CONFIG_A)
	EOF
	test_cmp expect out
'

test_expect_success 'a default changed elsewhere drops a line of a defconfig that does not name it' '
	write_file Kconfig.g <<-\EOF &&
	config G
		bool "g"
		default y
	config H2
		bool "h2"
		depends on G
	EOF
	printf "source \"Kconfig.g\"\n" >>Kconfig &&
	printf "CONFIG_H2=y\n" >configs/f_defconfig &&
	git add Kconfig Kconfig.g configs && test_tick && git commit -q -m "G and H2" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	sed -i "s/default y/default n/" Kconfig.g &&
	git add Kconfig.g && test_tick && git commit -q -m "G off by default" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	cat >expect <<-EOF &&
	$(git rev-parse --short HEAD) G off by default
	configs/f_defconfig:1: dropped (kconfig, global): CONFIG_H2=y (kconfig makes it n: CONFIG_G)
	EOF
	test_cmp expect out
'

test_expect_success KCONF 'conf agrees after the change' '
	for d in b f
	do
		conf_dropped configs/${d}_defconfig >expect &&
		ours_dropped configs/${d}_defconfig >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'a rewrite that keeps the line reports nothing new; the fix shows as fixed' '
	printf "# a comment\n" | cat - configs/b_defconfig >tmp && mv tmp configs/b_defconfig &&
	git add configs && test_tick && git commit -q -m "comment" &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	sed -i "/CONFIG_X=y/d" configs/b_defconfig &&
	git add configs && test_tick && git commit -q -m "drop X" &&
	git undertaker --no-notes --show=all HEAD >out &&
	grep "^configs/b_defconfig:2: dropped (kconfig, global): CONFIG_X=y (kconfig makes it n: CONFIG_A) \[fixed\]$" out
'

test_expect_success 'a merge reports nothing a parent had' '
	git checkout -q -b side HEAD~1 &&
	printf "CONFIG_A=y\n" >configs/e_defconfig &&
	git add configs && test_tick && git commit -q -m e &&
	git checkout -q - && test_tick && git merge -q --no-edit side &&
	git undertaker --no-notes HEAD >out &&
	test_must_be_empty out
'

# The symbols named are those that drop the line in every configuration
# of the defconfig, asked exactly, not read off the one configuration the
# solver found: that one depends on what the model was asked before (in a
# census, by another worker sharing it), and a symbol the model leaves free
# (here a probe) was named in some runs and not in others (U-Boot's
# sandbox_nocmdline_defconfig: CONFIG_CMDLINE, or CONFIG_CMDLINE and
# CONFIG_SMBIOS).
test_expect_success 'the names of a dropped line do not depend on the configuration found' '
	git init -q free &&
	(
		cd free &&
		write_file Kconfig <<-\EOF &&
		config CC_HAS_FOO
			def_bool $(success,false)
		config BASE
			bool "base"
		config OTHER
			bool "other"
		config CMD
			bool "cmd"
			depends on BASE && CC_HAS_FOO && OTHER
		EOF
		mkdir configs &&
		write_file configs/a_defconfig <<-\EOF &&
		CONFIG_OTHER=y
		CONFIG_CMD=y
		EOF
		git add . && test_tick && git commit -q -m free &&
		test_expect_code 1 git undertaker --no-notes --all HEAD -- configs/ >out &&
		echo "configs/a_defconfig:2: dropped (kconfig, global): CONFIG_CMD=y (kconfig makes it n: CONFIG_BASE)" >expect &&
		grep dropped out >actual &&
		test_cmp expect actual &&
		test_expect_code 1 env UNDERTAKER_POOL=0 git undertaker --no-notes --all HEAD -- configs/ >out2 &&
		grep dropped out2 >actual2 &&
		test_cmp expect actual2
	)
'

test_done
