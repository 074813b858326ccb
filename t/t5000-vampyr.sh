#!/bin/sh
test_description='git vampyr: the fewest configurations that compile every block a commit touches'
. ./test-lib.sh

CHECK="$UT_SRC_DIR/t/lib-vampyr/check-claims.py"

# Body lines are unique in each file: the oracle finds a block by its first one.
test_expect_success 'setup: a Kconfig tree and a file with blocks' '
	write_file Kconfig <<-\EOF &&
	mainmenu "vampyr test"
	config MODULES
		bool "modules"
		modules
	config A
		bool "a"
	config B
		tristate "b"
		depends on A
	config C
		bool "c"
		depends on !A
	config D
		bool
		default y if B
	config SEL
		bool "sel"
		select NET
	config NET
		bool "net"
		default n
	choice
		prompt "mode"
	config MODE_FAST
		bool "fast"
	config MODE_SMALL
		bool "small"
	config MODE_DEBUG
		bool "debug"
		depends on A
	endchoice
	EOF
	write_file foo.c <<-\EOF &&
	int x;
	#ifdef CONFIG_A
	int b_a;
	#if defined(CONFIG_B_MODULE)
	int b_bm;
	#elif defined(CONFIG_B)
	int b_by;
	#else
	int b_bn;
	#endif
	#endif
	#if defined(CONFIG_A) && defined(CONFIG_C)
	int b_dead;
	#endif
	#ifdef CONFIG_D
	int b_d;
	#endif
	#if defined(CONFIG_SEL) && !defined(CONFIG_A)
	int b_sel;
	#ifdef CONFIG_NET
	int b_net;
	#endif
	#endif
	#ifdef CONFIG_MODE_DEBUG
	int b_debug;
	#elif defined(CONFIG_MODE_SMALL)
	int b_small;
	#endif
	EOF
	git add . &&
	test_tick &&
	git commit -q -m "foo" &&
	git tag foo
'

test_expect_success 'text output: a table and the summary line' '
	git vampyr -o out >actual &&
	grep "^config-1  out/config-1.config" actual &&
	grep "^	foo.c:2 B0\$" actual &&
	grep "^dead	foo.c:12 B4\$" actual &&
	tail -n 1 actual >summary &&
	grep -E "^[0-9]+ configurations compile 9 of 10 blocks \(1 dead, [0-9]+ lower bound\)\$" summary
'

test_expect_success 'the default output directory is vampyr-<abbrev>' '
	git vampyr --no-notes >/dev/null &&
	test -f "vampyr-$(git rev-parse --short HEAD)/config-1.config"
'

test_expect_success 'fragments are in KCONFIG_ALLCONFIG format and not the whole assignment' '
	cat out/*.config >all &&
	! grep -v -E "^(CONFIG_[A-Z0-9_]+=[ym]|# CONFIG_[A-Z0-9_]+ is not set)\$" all &&
	for f in out/*.config
	do
		test $(wc -l <$f) -lt 11 || return 1
	done
'

test_expect_success 'an =m brings CONFIG_MODULES=y with it' '
	f=$(grep -l "^CONFIG_B=m" out/*.config) &&
	grep "^CONFIG_MODULES=y\$" $f &&
	grep "^CONFIG_A=y\$" $f
'

test_expect_success KCONF,UNIFDEF 'every fragment, expanded by alldefconfig, compiles the blocks it claims' '
	git vampyr --format=json -o out >report.json &&
	"$CHECK" report.json "$PWD" "$KCONF" >oracle &&
	cat oracle &&
	test $(grep -c "^ok " oracle) = 9
'

test_expect_success 'JSON: the fields of the issue' '
	python3 - <<-\PY
	import json
	r = json.load(open("report.json"))
	assert set(r) >= {"commit", "arch", "configs", "blocks_total", "blocks_covered",
	                  "blocks_dead", "dead", "lower_bound"}, r.keys()
	assert r["arch"] is None
	assert r["blocks_total"] == 10 and r["blocks_covered"] == 9 and r["blocks_dead"] == 1
	assert r["dead"] == [{"path": "foo.c", "line": 12, "block": 4}], r["dead"]
	for c in r["configs"]:
	    assert set(c) >= {"name", "path", "assignments", "covers"}
	    for b in c["covers"]:
	        assert set(b) == {"path", "line", "block"}
	claimed = sorted(b["block"] for c in r["configs"] for b in c["covers"])
	assert claimed == [0, 1, 2, 3, 5, 6, 7, 8, 9], claimed
	# B1, B2, B3 (three arms of one chain, under A) and B6 (needs !A) exclude each other.
	assert r["lower_bound"] == 4 and len(r["configs"]) >= r["lower_bound"]
	PY
'

test_expect_success 'the note in refs/notes/vampyr records configurations and coverage' '
	git notes --ref=vampyr show HEAD >note &&
	grep "configurations compile 9 of 10 blocks" note &&
	grep "^config-1:" note &&
	grep "^dead foo.c:12 B4\$" note
'

test_expect_success '--no-notes writes no note' '
	git notes --ref=vampyr remove HEAD &&
	git vampyr --no-notes -o out >/dev/null &&
	test_must_fail git notes --ref=vampyr show HEAD
'

for k in 2 3 4 5
do
	test_expect_success KCONF,UNIFDEF "a chain of $k arms needs exactly $k configurations" '
		{
			i=1 &&
			while test $i -lt $k
			do
				if test $i = 1
				then
					echo "#if defined(CONFIG_X$i)"
				else
					echo "#elif defined(CONFIG_X$i)"
				fi &&
				echo "int arm_$i;" &&
				i=$((i + 1)) || return 1
			done &&
			echo "#else" &&
			echo "int arm_else;" &&
			echo "#endif" &&
			# Blocks outside the chain fit into its k configurations.
			printf "#ifdef CONFIG_Z\nint z;\n#endif\n" &&
			printf "#ifndef CONFIG_Z\nint no_z;\n#endif\n" &&
			printf "#if defined(CONFIG_X1) && defined(CONFIG_Z)\nint x1_z;\n#endif\n"
		} >chain.c &&
		{
			echo "mainmenu \"chain\"" &&
			i=1 &&
			while test $i -lt $k
			do
				printf "config X%s\n\tbool \"x%s\"\n" $i $i &&
				i=$((i + 1)) || return 1
			done &&
			printf "config Z\n\tbool \"z\"\n"
		} >Kconfig.chain &&
		mkdir -p chain$k &&
		cp chain.c chain$k/ &&
		cp Kconfig.chain chain$k/Kconfig &&
		(
			cd chain$k &&
			git init -q &&
			git add . &&
			git commit -q -m chain &&
			git vampyr --format=json -o out >report.json &&
			python3 -c "import json; r = json.load(open(\"report.json\")); assert len(r[\"configs\"]) == $k and r[\"lower_bound\"] == $k and r[\"blocks_covered\"] == $k + 3, r" &&
			"$CHECK" report.json "$PWD" "$KCONF" >oracle &&
			test $(grep -c "^ok " oracle) = $((k + 3))
		)
	'
done

test_expect_success 'pathspec: every block of the chosen files at the commit' '
	write_file bar.c <<-\EOF &&
	#ifdef CONFIG_A
	int bar_a;
	#endif
	EOF
	git add bar.c &&
	test_tick &&
	git commit -q -m bar &&
	git vampyr --no-notes -o out2 >actual &&
	tail -n 1 actual | grep "compiles 1 of 1 blocks" &&
	git vampyr --no-notes -o out2 -- foo.c >actual &&
	tail -n 1 actual | grep "compile 9 of 10 blocks"
'

test_expect_success '--blocks=hunks: only the blocks the hunks touch (--scope, the old spelling, too)' '
	sed -e "s/^int b_by;/int b_by2;/" foo.c >tmp && mv tmp foo.c &&
	git commit -q -a -m "touch one arm" &&
	git vampyr --no-notes --blocks=hunks --format=json -o out3 >report.json &&
	python3 -c "import json; r = json.load(open(\"report.json\")); blocks = sorted(b[\"block\"] for c in r[\"configs\"] for b in c[\"covers\"]); assert r[\"blocks_total\"] == 2 and blocks == [0, 2], r" &&
	git vampyr --no-notes --format=json -o out3 >report.json &&
	python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"blocks_total\"] == 10, r" &&
	sed -e "/^int b_d;/d" foo.c >tmp && mv tmp foo.c &&
	git commit -q -a -m "remove a line of B5" &&
	git vampyr --no-notes --scope=hunks --format=json -o out3 >report.json &&
	python3 -c "import json; r = json.load(open(\"report.json\")); blocks = [b[\"block\"] for c in r[\"configs\"] for b in c[\"covers\"]]; assert r[\"blocks_total\"] == 1 and blocks == [5], r"
'

test_expect_success 'kbuild: the file condition is ANDed into its blocks' '
	mkdir kb &&
	(
		cd kb &&
		git init -q &&
		write_file Kconfig <<-\EOF &&
		mainmenu "kbuild"
		config MODULES
			bool "modules"
			modules
		config DRV
			bool "drv"
		config FEAT
			bool "feat"
		config GONE
			bool "gone"
			depends on !DRV
		EOF
		write_file Kbuild <<-\EOF &&
		obj-y += drivers/
		EOF
		write_file drivers/Makefile <<-\EOF &&
		obj-$(CONFIG_DRV) += drv.o
		EOF
		write_file drivers/drv.c <<-\EOF &&
		#ifdef CONFIG_FEAT
		int feat;
		#endif
		#ifdef CONFIG_GONE
		int gone;
		#endif
		EOF
		git add . &&
		git commit -q -m kb &&
		git vampyr --no-notes --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"blocks_covered\"] == 2 and r[\"blocks_dead\"] == 1 and r[\"dead\"][0][\"line\"] == 4, r" &&
		# The new file itself (line 0) is a block too: compiled where DRV is on.
		git vampyr --no-notes -o out >actual &&
		grep "drivers/drv.c:0 B00" actual &&
		grep "^CONFIG_DRV=y\$" out/config-1.config &&
		git vampyr --no-notes --no-kbuild --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"blocks_covered\"] == 2, r" &&
		! grep "^CONFIG_DRV=" out/config-1.config
	)
'

test_expect_success 'kbuild: MODULE is defined for the objects of a module only' '
	mkdir kbm &&
	(
		cd kbm &&
		git init -q &&
		write_file Kconfig <<-\EOF &&
		mainmenu "kbuild modules"
		config MODULES
			bool "modules"
			modules
		config DRV
			tristate "drv"
		EOF
		write_file Kbuild <<-\EOF &&
		obj-$(CONFIG_DRV) += drv.o
		obj-y += core.o
		EOF
		write_file drv.c <<-\EOF &&
		#ifdef MODULE
		int drv_module;
		#else
		int drv_builtin;
		#endif
		EOF
		write_file core.c <<-\EOF &&
		#ifdef MODULE
		int core_module;
		#endif
		EOF
		git add . &&
		git commit -q -m kbm &&
		git vampyr --no-notes --format=json -o out -- drv.c >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert len(r[\"configs\"]) == 2 and r[\"blocks_covered\"] == 2, r" &&
		grep -l "^CONFIG_DRV=m\$" out/*.config &&
		grep -l "^CONFIG_DRV=y\$" out/*.config &&
		git vampyr --no-notes --format=json -o out -- core.c >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"blocks_dead\"] == 1, r"
	)
'

test_expect_success KCONF,UNIFDEF 'a richer tree: menus, if, select, imply, choice, defaults; many blocks' '
	mkdir rich &&
	(
		cd rich &&
		git init -q &&
		write_file Kconfig <<-\EOF &&
		mainmenu "rich"
		config MODULES
			bool "modules"
			modules
			default y
		menu "net"
		config NET
			bool "net"
			default y
		if NET
		config INET
			bool "inet"
			default y
		config IPV6
			tristate "ipv6"
			depends on INET
			imply CRC
		config NETFILTER
			bool "netfilter"
			select SKB_EXT
		endif
		endmenu
		config SKB_EXT
			bool
		config CRC
			tristate "crc"
		config CRC_FAST
			bool "fast crc"
			depends on CRC
			default y
		config HAVE_ARCH_X
			bool
			default y if !EMBEDDED
		config EMBEDDED
			bool "embedded"
			select EXPERT
		config EXPERT
			bool "expert"
		choice
			prompt "alloc"
			default ALLOC_A
		config ALLOC_A
			bool "a"
		config ALLOC_B
			bool "b"
			depends on EXPERT
		config ALLOC_C
			bool "c"
			depends on NET
		endchoice
		config DEBUG
			bool "debug"
			default y if EXPERT
		config FEATURE
			tristate "feature"
			depends on MODULES && (IPV6 || CRC)
		EOF
		python3 - <<-\PY &&
		syms = "NET INET IPV6 NETFILTER SKB_EXT CRC CRC_FAST HAVE_ARCH_X EMBEDDED EXPERT ALLOC_A ALLOC_B ALLOC_C DEBUG FEATURE".split()
		out = []
		def blk(cond):
		    out.append("#if %s\nint b_%d;\n#endif" % (cond, len(out)))
		# Two dead ones first (EMBEDDED selects EXPERT, ALLOC_B depends on it);
		# one more comes below, at line 142: !NET && NETFILTER (inside "if NET").
		blk("!defined(CONFIG_EXPERT) && defined(CONFIG_EMBEDDED)")
		blk("defined(CONFIG_ALLOC_B) && !defined(CONFIG_EXPERT)")
		for s in syms:
		    blk("defined(CONFIG_%s)" % s)
		    blk("!defined(CONFIG_%s)" % s)
		    if s in ("IPV6", "CRC", "FEATURE"):
		        blk("defined(CONFIG_%s_MODULE)" % s)
		for i in range(45):
		    a, b = syms[i % 15], syms[(i * 7 + 3) % 15]
		    if a != b:
		        blk("%sdefined(CONFIG_%s) && %sdefined(CONFIG_%s)" % ("!" if i % 2 else "", a, "!" if i % 3 else "", b))
		open("rich.c", "w").write("\n".join(out) + "\n")
		PY
		git add . &&
		git commit -q -m rich &&
		git vampyr --no-notes --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert [d[\"line\"] for d in r[\"dead\"]] == [1, 4, 142] and r[\"blocks_covered\"] + 3 == r[\"blocks_total\"] and len(r[\"configs\"]) >= r[\"lower_bound\"] >= 2, r" &&
		"$CHECK" report.json "$PWD" "$KCONF" >oracle &&
		! grep -v "^ok " oracle
	)
'

# x86 writes `select DCACHE_WORD_ACCESS if !KMSAN`: the symbol has no prompt, so a
# block under #ifndef needs KMSAN=y in the fragment, or alldefconfig turns it back on.
test_expect_success KCONF,UNIFDEF 'the fragment pins the condition of a select (and of an imply)' '
	mkdir selif &&
	(
		cd selif &&
		git init -q &&
		write_file Kconfig <<-\EOF &&
		mainmenu "select if"
		config ARCH
			def_bool y
			select DCW if !KM
			imply FAST if !SLOW
		config DCW
			bool
		config KM
			bool "km"
		config FAST
			bool "fast"
		config SLOW
			bool "slow"
		EOF
		write_file s.c <<-\EOF &&
		#ifndef CONFIG_DCW
		int no_dcw;
		#endif
		#ifdef CONFIG_DCW
		int dcw;
		#endif
		#ifndef CONFIG_FAST
		int no_fast;
		#endif
		EOF
		git add . &&
		git commit -q -m selif &&
		git vampyr --no-notes --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"blocks_covered\"] == 3 and len(r[\"configs\"]) == 2, r" &&
		grep -l "^CONFIG_KM=y\$" out/*.config &&
		"$CHECK" report.json "$PWD" "$KCONF" >oracle &&
		cat oracle &&
		test $(grep -c "^ok " oracle) = 3
	)
'

# In file order the greedy puts !X and !Y together (Z) and needs three
# configurations; seeded with the arms of the chain (the bound's clique) it
# pairs !Y with X and !X with Y: two, the lower bound.
test_expect_success KCONF,UNIFDEF 'when the count exceeds the bound, a cover seeded with its clique' '
	mkdir seeded &&
	(
		cd seeded &&
		git init -q &&
		write_file Kconfig <<-\EOF &&
		mainmenu "seeded"
		choice
			prompt "pick"
		config X
			bool "x"
		config Y
			bool "y"
		config Z
			bool "z"
		endchoice
		EOF
		write_file s.c <<-\EOF &&
		#ifndef CONFIG_Y
		int not_y;
		#endif
		#ifndef CONFIG_X
		int not_x;
		#endif
		#if defined(CONFIG_X)
		int is_x;
		#elif defined(CONFIG_Y)
		int is_y;
		#endif
		EOF
		git add . &&
		git commit -q -m seeded &&
		git vampyr --no-notes --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert len(r[\"configs\"]) == 2 and r[\"lower_bound\"] == 2 and r[\"blocks_covered\"] == 4, r" &&
		"$CHECK" report.json "$PWD" "$KCONF" >oracle &&
		test $(grep -c "^ok " oracle) = 4
	)
'

# The same blocks without the chain: the clique the bound finds first is {!Y, Y},
# and seeding with it still gives three; spreading the claims of the
# configuration that holds !X and !Y over the other two gives the bound.
test_expect_success KCONF,UNIFDEF 'a configuration whose claims fit into the others goes' '
	(
		cd seeded &&
		write_file s.c <<-\EOF &&
		#ifndef CONFIG_Y
		int not_y;
		#endif
		#ifndef CONFIG_X
		int not_x;
		#endif
		#ifdef CONFIG_X
		int is_x;
		#endif
		#ifdef CONFIG_Y
		int is_y;
		#endif
		EOF
		git commit -q -a -m "no chain" &&
		git vampyr --no-notes --format=json -o out2 >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert len(r[\"configs\"]) == 2 and r[\"lower_bound\"] == 2 and r[\"blocks_covered\"] == 4 and [c[\"name\"] for c in r[\"configs\"]] == [\"config-1\", \"config-2\"], r" &&
		! test -e out2/config-3.config &&
		"$CHECK" report.json "$PWD" "$KCONF" >oracle &&
		test $(grep -c "^ok " oracle) = 4
	)
'

test_expect_success 'usage errors exit 129, a bad commit 128' '
	test_expect_code 129 git vampyr --blocks=lines &&
	test_expect_code 129 git vampyr --scope=lines &&
	test_expect_code 129 git vampyr -h >usage &&
	grep -e "--blocks" usage &&
	! grep -e "--scope" usage &&
	test_expect_code 129 git vampyr --no-such-option &&
	test_expect_code 128 git vampyr --commit=no-such-commit
'

test_done
