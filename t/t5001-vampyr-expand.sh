#!/bin/sh
test_description='git vampyr --expand and --build: the tree'"'"'s own kconfig and compiler'
. ./test-lib.sh

CHECK="$UT_SRC_DIR/t/lib-vampyr/check-claims.py"

# H has a prompt and is off by default, but S (on by default) selects it: a
# fragment that only pins H loses "#ifndef CONFIG_H" once alldefconfig runs,
# and pinning S as well keeps it.
test_expect_success 'setup' '
	write_file Kconfig <<-\EOF &&
	mainmenu "expand test"
	config MODULES
		bool "modules"
		modules
	config A
		bool "a"
	config H
		bool "h"
	config S
		bool "s"
		default y
		select H
	config T
		tristate "t"
		depends on A
	EOF
	write_file foo.c <<-\EOF &&
	void f(void)
	{
	#ifndef CONFIG_H
		int b_noh;
	#endif
	#if defined(CONFIG_A) && defined(CONFIG_T_MODULE)
		int b_tm;
	#endif
	#ifdef CONFIG_T
		int b_ty;
	#endif
	}
	EOF
	git add . &&
	test_tick &&
	git commit -q -m base &&
	git config vampyr.kconfig "\"$KCONF\" --alldefconfig Kconfig"
'

test_expect_success KCONF,UNIFDEF '--expand: a lost block is kept by pinning more, and the claims hold' '
	git vampyr --expand --format=json -o out >report.json &&
	python3 - <<-\PY &&
	import json
	r = json.load(open("report.json"))
	assert r["blocks_covered_expanded"] == 3, r
	for c in r["configs"]:
	    assert c["lost"] == [], c
	noh = [c for c in r["configs"] if any(b["line"] == 3 for b in c["covers"])][0]
	assert "# CONFIG_S is not set" in noh["assignments"], noh
	assert "# CONFIG_H is not set" in noh["assignments"], noh
	PY
	"$CHECK" report.json "$PWD" "$KCONF" expanded &&
	"$CHECK" report.json "$PWD" "$KCONF" &&
	git vampyr --no-notes --expand -o out >actual &&
	grep "^after expansion: 3 of 3 blocks compiled\$" actual
'

test_expect_success KCONF 'the note: fragments and coverage, one section per run, replaced by the next' '
	git vampyr --expand -o outn >/dev/null &&
	git notes --ref=vampyr show HEAD >note1 &&
	test $(grep -c "^vampyr: arch -: " note1) = 1 &&
	grep "^after expansion: 3 of 3 blocks compiled\$" note1 &&
	grep "^config-1: " note1 &&
	grep "^  covers foo.c:3 B0\$" note1 &&
	# What alldefconfig adds is in the expanded .config, never in the note.
	! grep "Automatically generated" note1 &&
	test $(wc -c <note1) -lt 1024 &&
	git vampyr --expand -o outn >/dev/null &&
	git notes --ref=vampyr show HEAD >note2 &&
	test_cmp note1 note2 &&
	git vampyr -o outn -- foo.c >/dev/null &&
	git notes --ref=vampyr show HEAD >note3 &&
	test $(grep -c "^vampyr: arch -: " note3) = 1 &&
	test $(grep -c "^vampyr: arch - -- foo.c: " note3) = 1 &&
	git vampyr --expand -o outn >/dev/null &&
	git notes --ref=vampyr show HEAD >note4 &&
	test $(grep -c "^vampyr: " note4) = 2 &&
	test $(wc -c <note4) = $(wc -c <note3)
'

test_expect_success KCONF '--kconfig on the command line wins over vampyr.kconfig' '
	git vampyr --no-notes --expand --kconfig="\"$KCONF\" --alldefconfig Kconfig" -o out2 >actual &&
	grep "^after expansion: 3 of 3" actual &&
	test -f out2/config-1.expanded
'

# The configurations' kconfig runs go side by side, -j at once: each run here
# marks itself active and waits up to 2 s for another configuration's run.
test_expect_success KCONF '--expand runs -j kconfig commands at once' '
	write_file kc.sh <<-\EOF &&
	case "$KCONFIG_CONFIG" in
	*/.vampyr-toolchain.*) ;;
	*)
		touch "$1/active.$$"
		n=0
		while test $n -lt 20
		do
			if test $(ls "$1" | grep -c "^active") -ge 2
			then
				echo overlap >>"$1/log"
				break
			fi
			sleep 0.1
			n=$((n + 1))
		done
		rm -f "$1/active.$$"
	esac
	exec "$KCONF" --alldefconfig Kconfig
	EOF
	mkdir j1 j2 &&
	git vampyr --no-notes --expand -j 2 --kconfig="sh \"$PWD/kc.sh\" \"$PWD/j2\"" -o outj2 >actual &&
	grep "^2 configurations compile 3 of 3" actual &&
	grep "^after expansion: 3 of 3" actual &&
	test -s j2/log &&
	git vampyr --no-notes --expand -j 1 --kconfig="sh \"$PWD/kc.sh\" \"$PWD/j1\"" -o outj1 >actual &&
	grep "^after expansion: 3 of 3" actual &&
	! test -e j1/log &&
	test_cmp outj1/config-1.expanded outj2/config-1.expanded &&
	test_cmp outj1/config-2.expanded outj2/config-2.expanded
'

# A configuration that loses a block runs again as soon as its own run has
# ended, not after the other configurations' runs: here the run of the
# configuration with T=y waits (up to 5 s) for the second start of the one
# with H off (which loses "#ifndef CONFIG_H" until S is pinned too), and logs
# when it sees it.
test_expect_success KCONF 'a pin round starts while other configurations still run' '
	write_file kcw.sh <<-\EOF &&
	case "$KCONFIG_ALLCONFIG" in
	*/.vampyr-yes.*) ;;
	*)
		grep -q "CONFIG_H is not set" "$KCONFIG_ALLCONFIG" && echo start >>"$1/starts"
		if grep -q "^CONFIG_T=y" "$KCONFIG_ALLCONFIG"
		then
			n=0
			while test $n -lt 50 && test $(cat "$1/starts" 2>/dev/null | wc -l) -lt 2
			do
				sleep 0.1
				n=$((n + 1))
			done
			test $(cat "$1/starts" | wc -l) -lt 2 || echo overlap >>"$1/log"
		fi
	esac
	exec "$KCONF" --alldefconfig Kconfig
	EOF
	mkdir jw &&
	git vampyr --no-notes --expand -j 2 --kconfig="sh \"$PWD/kcw.sh\" \"$PWD/jw\"" -o outjw >actual &&
	grep "^after expansion: 3 of 3" actual &&
	test $(wc -l <jw/starts) = 2 &&
	test "$(cat jw/log)" = overlap
'

test_expect_success 'a kconfig command that exits 0 without writing a .config is said so' '
	test_must_fail git vampyr --no-notes --expand -o out4 --kconfig=true >actual 2>err &&
	grep "the kconfig command exited 0 but wrote no configuration" err &&
	grep "KCONFIG_CONFIG" err &&
	! grep "failed (exit 0)" err
'

test_expect_success 'what expansion cannot keep is reported' '
	git vampyr --no-notes --expand --format=json -o out3 \
		--kconfig="echo \"# nothing\" >\"\$KCONFIG_CONFIG\"" >report.json &&
	python3 - <<-\PY
	import json
	r = json.load(open("report.json"))
	lost = [b for c in r["configs"] for b in c["lost"]]
	assert len(lost) >= 2 and r["blocks_covered_expanded"] < 3, r
	assert all(b["line"] != 3 for b in lost)
	PY
	git vampyr --no-notes --expand -o out3 \
		--kconfig="echo \"# nothing\" >\"\$KCONFIG_CONFIG\"" >actual &&
	grep "(lost by expansion)" actual
'

test_expect_success 'a failing kconfig command is fatal' '
	test_expect_code 128 git vampyr --no-notes --expand -o out4 --kconfig="exit 3" 2>err &&
	grep "kconfig command failed" err
'

test_expect_success 'the temporary tree is made from the object store, not the work tree' '
	echo "garbage that is not Kconfig" >>Kconfig &&
	git vampyr --no-notes --expand -o out5 --kconfig="cp Kconfig \"\$KCONFIG_CONFIG\"" >actual 2>&1 &&
	! grep garbage out5/config-1.expanded &&
	git checkout Kconfig
'

# The model leaves $(shell,...) free; the real kconfig runs it. Blocks that only
# another toolchain could configure are named apart, and no configuration loses them.
test_expect_success KCONF,UNIFDEF '--expand: what only the toolchain decides is learnt from kconfig' '
	mkdir tc &&
	(
		cd tc &&
		git init -q &&
		# Spaces indent the properties: <<- strips tabs, and conf wants
		# "def_bool $(...)" indented.
		write_file Kconfig <<-\EOF &&
		mainmenu "toolchain"
		config TC_YES
		  def_bool $(shell,echo y)
		config TC_NO
		  def_bool $(shell,echo n)
		config BOTH
		  def_bool TC_YES && TC_NO
		config KM
		  bool "km"
		  depends on TC_NO
		config ARCH
		  def_bool y
		  select DCW if !KM
		config DCW
		  bool
		config OTHER
		  bool "other"
		config PLUG
		  bool "plug"
		  depends on TC_YES
		  depends on $(shell,echo n)
		config PLUG_FEAT
		  bool "plug feat"
		  depends on PLUG
		config VIS
		  bool "vis"
		  depends on $(shell,true && echo y)
		config TC_VER
		  int
		  default $(shell,echo 5)
		config TC_NEW
		  def_bool TC_VER >= 10
		config NEEDS_NEW
		  bool "needs new"
		  depends on TC_NEW
		config DBG
		  bool "dbg"
		config SPLIT
		  def_bool TC_VER >= 10
		  depends on DBG
		config USE_SPLIT
		  bool "use split"
		  depends on SPLIT
		choice
		  prompt "debug info"
		config DBG_NONE
		  bool "none"
		config DBG_ON
		  bool "on"
		  select DBG_INFO
		endchoice
		config DBG_INFO
		  bool
		config SPLIT2
		  def_bool TC_VER >= 10
		  depends on DBG_INFO
		config USE_SPLIT2
		  bool "use split2"
		  depends on SPLIT2
		config TC_STR
		  string
		  default "abc"
		config STR_USER
		  bool "str user"
		  depends on TC_STR != ""
		EOF
		write_file tc.c <<-\EOF &&
		#ifdef CONFIG_KM
		int km;
		#endif
		#ifndef CONFIG_DCW
		int no_dcw;
		#endif
		#ifdef CONFIG_TC_YES
		int tc_yes;
		#endif
		#ifdef CONFIG_OTHER
		int other;
		#endif
		#ifdef CONFIG_BOTH
		int both;
		#endif
		#ifndef CONFIG_OTHER
		int no_other;
		#endif
		#ifdef CONFIG_PLUG
		int plug;
		#endif
		#ifdef CONFIG_PLUG_FEAT
		int plug_feat;
		#endif
		#ifdef CONFIG_VIS
		int vis;
		#endif
		#ifdef CONFIG_NEEDS_NEW
		int needs_new;
		#endif
		#ifdef CONFIG_USE_SPLIT
		int use_split;
		#endif
		#ifdef CONFIG_USE_SPLIT2
		int use_split2;
		#endif
		EOF
		git add . &&
		git commit -q -m tc &&
		git config vampyr.kconfig "\"$KCONF\" --alldefconfig Kconfig" &&
		git vampyr --no-notes --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"blocks_covered\"] == 12 and \"blocks_toolchain\" not in r, r" &&
		git vampyr --no-notes --expand --format=json -o out >report.json &&
		python3 - <<-\PY &&
		import json
		r = json.load(open("report.json"))
		assert r["blocks_toolchain"] == 8, r
		assert [b["line"] for b in r["toolchain"]] == [1, 4, 13, 19, 22, 28, 31, 34], r["toolchain"]
		facts = set(r["toolchain_facts"])
		assert {"TC_YES=y", "TC_NO=n", "BOTH=n", "$(shell,echo n)=n",
		        "$(shell,true && echo y)=y", "TC_VER=set", "TC_NEW=n", "SPLIT=n", "SPLIT2=n"} <= facts, facts
		assert not any(f.split("=")[0] in ("KM", "DCW", "PLUG", "PLUG_FEAT", "VIS", "DBG", "USE_SPLIT")
		               for f in facts), facts
		assert r["blocks_covered"] == 4 and r["blocks_covered_expanded"] == 4, r
		assert all(c["lost"] == [] for c in r["configs"]), r["configs"]
		PY
		"$CHECK" report.json "$PWD" "$KCONF" expanded >oracle &&
		test $(grep -c "^ok " oracle) = 4 &&
		git vampyr --no-notes --expand -o out >actual &&
		grep "^toolchain	tc.c:4 B1\$" actual &&
		grep "^toolchain	tc.c:19 B6\$" actual &&
		grep "^this toolchain rules out 8 blocks" actual
	)
'

test_expect_success KCONF '--build: the warnings the commit adds, with the configurations that show them' '
	write_file foo.c <<-\EOF &&
	void f(void)
	{
	#ifndef CONFIG_H
		int b_noh;
	#endif
	#if defined(CONFIG_A) && defined(CONFIG_T_MODULE)
		int b_tm;
		int new_unused;
	#endif
	#ifdef CONFIG_T
		int b_ty;
	#endif
	}
	EOF
	git commit -q -a -m "add a warning" &&
	cat >build.sh <<-\EOF &&
	echo "$2 $VAMPYR_TARGETS" >>"$1"
	flags=$(sed -n -e "s/^\(CONFIG_[A-Za-z0-9_]*\)=y\$/-D\1/p" -e "s/^\(CONFIG_[A-Za-z0-9_]*\)=m\$/-D\1_MODULE/p" .config)
	gcc -fsyntax-only -Wall $flags foo.c
	EOF
	# A diagnostic the commit adds is a finding: exit 1, as in the rest of the suite.
	test_expect_code 1 git vampyr --no-notes --expand --build="sh \"$PWD/build.sh\" \"$PWD/args\"" --format=json -o out6 >report.json &&
	# Only the objects of the files the commit changes are built, at X and its parent.
	sort -u args >args.u &&
	echo "foo.o foo.o" >expect &&
	test_cmp expect args.u &&
	test $(wc -l <args) = $((2 * $(python3 -c "import json; print(len(json.load(open(\"report.json\"))[\"configs\"]))"))) &&
	python3 - <<-\PY &&
	import json
	r = json.load(open("report.json"))
	w = r["warnings"]
	assert len(w) == 1 and "new_unused" in w[0]["text"], w
	assert w[0]["text"].startswith("foo.c:8:"), w
	tm = [c["name"] for c in r["configs"] if any(b["line"] == 6 for b in c["covers"])]
	assert w[0]["configs"] == tm, (w, tm)
	PY
	test_expect_code 1 git vampyr --no-notes --expand --build="sh \"$PWD/build.sh\" \"$PWD/args\"" -o out6 >actual &&
	grep "^the commit adds 1 diagnostic\$" actual &&
	grep "^foo.c:8:[0-9]*: warning: unused variable .new_unused." actual
'

test_expect_success KCONF '--build keeps its tree under .git/vampyr/build and writes only what differs' '
	rm -rf .git/vampyr/build writes &&
	b="sh \"$PWD/build.sh\" \"$PWD/args\"" &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" test_expect_code 1 git vampyr --no-notes --build="$b" -o out8 >actual &&
	grep "^the commit adds 1 diagnostic\$" actual &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" test_expect_code 1 git vampyr --no-notes --build="$b" -o out8 >actual &&
	grep "^the commit adds 1 diagnostic\$" actual &&
	# The kept tree holds the commit (its changed file swapped back), and its list.
	git show HEAD:foo.c >expect &&
	test_cmp expect .git/vampyr/build/foo.c &&
	test -f .git/vampyr/build/.vampyr-files &&
	! test -e .git/vampyr/build.lock &&
	echo "int more;" >>foo.c &&
	git commit -q -a -m "one more line" &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" git vampyr --no-notes --build="$b" -o out8 >actual &&
	grep "^the commit adds 0 diagnostics\$" actual &&
	test_cmp foo.c .git/vampyr/build/foo.c &&
	grep "^build" writes >actual.w &&
	printf "build %d\nbuild 0\nbuild 1\n" $(git ls-files | wc -l) >expect &&
	test_cmp expect actual.w &&
	# A lock of a run that is gone is taken over; a live one is left alone
	# and the build goes to a temporary tree.
	echo 999999999 >.git/vampyr/build.lock &&
	rm writes &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" git vampyr --no-notes --build="$b" -o out8 >/dev/null &&
	grep "^build 0\$" writes &&
	! test -e .git/vampyr/build.lock &&
	echo $$ >.git/vampyr/build.lock &&
	rm writes &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" git vampyr --no-notes --build="$b" -o out8 >actual &&
	grep "^the commit adds 0 diagnostics\$" actual &&
	! grep "^build" writes &&
	rm .git/vampyr/build.lock &&
	git reset -q --hard HEAD~1
'

test_expect_success KCONF '--build: a build that fails is said, with its last lines' '
	test_expect_code 1 git vampyr --no-notes --expand --build="echo no objtool without libelf; exit 2" -o out7 >actual 2>err &&
	grep "config-1: the build failed (exit 2): echo no objtool without libelf; exit 2 foo.o" err &&
	grep "^no objtool without libelf" err &&
	grep "^the commit adds 0 diagnostics\$" actual
'

test_expect_success KCONF '--build: a runaway build is stopped at 64 MiB of output' '
	test_expect_code 1 git vampyr --no-notes --expand --build="yes" -o out7 >actual 2>err &&
	grep "stopped after 64 MiB of output" err &&
	grep "config-1: the build failed" err &&
	! test -e .git/vampyr/build/.vampyr-build.log
'

# A board sets the values no default gives (U-Boot's SYS_LOAD_ADDR); the
# expanded .config leaves them empty and the build's own kconfig would ask
# for them. A blob the repository lacks is left out of the build tree.
test_expect_success KCONF '--build: int and hex values no default gives; a blob the repository lacks' '
	git init -q fill &&
	(
		cd fill &&
		write_file Kconfig <<-\EOF &&
		config A
			bool "a"
		config ADDR
			hex "load address"
		config COUNT
			int "count"
			range 3 9
		config N
			int "n"
			default 5
		EOF
		write_file a.c <<-\EOF &&
		#ifdef CONFIG_A
		int a;
		#endif
		EOF
		mkdir data &&
		echo "not needed to build" >data/big.dat &&
		git add . &&
		git commit -q -m base &&
		echo "int b;" >>a.c &&
		git commit -q -a -m "a.c: more" &&
		blob=$(git rev-parse HEAD:data/big.dat) &&
		rm .git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
		git vampyr --no-notes --expand --kconfig="\"$KCONF\" --alldefconfig Kconfig" \
			--build="grep -E \"^CONFIG_(ADDR|COUNT|N)=\" .config >>\"$PWD/seen\"; : \$VAMPYR_TARGETS; test ! -e data/big.dat" \
			-o out >actual 2>err &&
		grep "^CONFIG_ADDR=\$" out/config-1.expanded &&
		sort -u seen >seen.u &&
		printf "CONFIG_ADDR=0x0\nCONFIG_COUNT=3\nCONFIG_N=5\n" >expect &&
		test_cmp expect seen.u &&
		test $(grep -c "no default gives a value to CONFIG_ADDR=0x0;" err) = 1 &&
		grep "data/big.dat: blob $blob is not in the repository" err &&
		grep "^the commit adds 0 diagnostics\$" actual
	)
'

test_expect_success 'architectures: --arch picks one; without it, where the most blocks compile, then the host'"'"'s' '
	mkdir arches &&
	(
		cd arches &&
		git init -q &&
		write_file Kconfig <<-\EOF &&
		mainmenu "arches"
		source "arch/$(SRCARCH)/Kconfig"
		EOF
		for a in x86 arm64 riscv
		do
			write_file arch/$a/Kconfig <<-EOF || return 1
			config ARCH_$a
				def_bool y
			config ONLY_$a
				bool "only $a"
			EOF
		done &&
		write_file a.c <<-\EOF &&
		#ifdef CONFIG_ONLY_arm64
		int on_arm64;
		#endif
		EOF
		git add . &&
		git commit -q -m arches &&
		git vampyr --no-notes --arch=arm64 --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"arch\"] == \"arm64\" and r[\"blocks_covered\"] == 1, r" &&
		git vampyr --no-notes --arch=riscv --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"arch\"] == \"riscv\" and r[\"blocks_dead\"] == 1, r" &&
		test_expect_code 129 git vampyr --no-notes --arch=sparc -o out 2>err &&
		grep "no architecture .sparc." err &&
		grep "valid architectures: .*arm64" err &&
		test_expect_code 129 git vampyr --arch=arm46 -o out2 >stdout 2>err &&
		grep "did you mean .arm64.?" err &&
		test_must_be_empty stdout &&
		! test -e out2 &&
		test_must_fail git rev-parse --verify -q refs/notes/vampyr &&
		case $(uname -m) in
		x86_64|i?86) host=x86 ;;
		aarch64*) host=arm64 ;;
		riscv*) host=riscv ;;
		*) host= ;;
		esac &&
		# Without --arch: the one where the most blocks compile (here only
		# arm64 compiles the block), the host'"'"'s on a tie.
		git vampyr --no-notes --format=json -o out >report.json &&
		python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"arch\"] == \"arm64\", r" &&
		if test -n "$host"
		then
			write_file a.c <<-\EOF &&
			int everywhere;
			EOF
			git commit -q -a -m everywhere &&
			git vampyr --no-notes --format=json -o out >report.json &&
			python3 -c "import json; r = json.load(open(\"report.json\")); assert r[\"arch\"] == \"$host\", r"
		fi
	)
'

test_done
