#!/bin/sh
test_description='git vampyr --expand: small fragments, and a reason for every lost block'
. ./test-lib.sh

# H is off by default but S (a prompt, on by default) selects it: the cone of
# "#ifndef CONFIG_H" does not name S, so the first expansion loses the block;
# its trace names S, and only S is pinned. A hundred unrelated symbols that a
# whole assignment would pin stay out of the fragment and the note.
test_expect_success 'setup' '
	{
		echo "mainmenu \"lost test\"" &&
		echo "config H" && echo "	bool \"h\"" &&
		echo "config S" && echo "	bool \"s\"" && echo "	default y" && echo "	select H" &&
		echo "config PV" && echo "	int" && echo "	default \$(shell,echo 0)" &&
		echo "config SPLIT" && echo "	bool \"split\"" &&
		echo "config BTF" && echo "	bool \"btf\"" &&
		echo "	depends on !SPLIT" && echo "	depends on PV >= 116" &&
		echo "config EXT" && echo "	bool \"ext\"" && echo "	depends on BTF" &&
		for i in $(test_seq 1 100)
		do
			echo "config U$i" && echo "	bool \"u$i\"" && echo "	default y" || return 1
		done
	} >Kconfig &&
	write_file a.c <<-\EOF &&
	#ifndef CONFIG_H
	int no_h;
	#endif
	EOF
	write_file b.c <<-\EOF &&
	#ifdef CONFIG_EXT
	int ext;
	#endif
	EOF
	git add . &&
	test_tick &&
	git commit -q -m base &&
	git config vampyr.kconfig "\"$KCONF\" --alldefconfig Kconfig"
'

test_expect_success KCONF 'a fragment keeps its small size after pinning' '
	git vampyr --expand --format=json -o out -- a.c >report.json &&
	python3 - <<-\PY &&
	import json
	r = json.load(open("report.json"))
	(c,) = r["configs"]
	assert c["lost"] == [] and r["blocks_covered_expanded"] == 1, r
	assert c["pinned"] == ["S"], c
	assert sorted(c["assignments"]) == ["# CONFIG_H is not set", "# CONFIG_S is not set"], c
	PY
	test_line_count = 2 out/config-1.config &&
	test $(grep -c "^CONFIG_U" out/config-1.expanded) = 100
'

test_expect_success KCONF 'a fragment kconfig cannot keep stays small too' '
	git vampyr --expand --format=json -o out2 --kconfig="echo CONFIG_H=y >\"\$KCONFIG_CONFIG\"" \
		-- a.c >report.json &&
	python3 - <<-\PY &&
	import json
	r = json.load(open("report.json"))
	(c,) = r["configs"]
	(l,) = c["lost"]
	assert l["kind"] == "kconfig", l
	assert l["reason"] == "H=y (wanted n) [set otherwise despite the fragment]", l
	assert len(c["assignments"]) <= 2, c
	PY
	test_line_count -le 2 out2/config-1.config
'

test_expect_success KCONF 'the note stays under a bound, and a second run replaces it' '
	git vampyr --expand -o out3 >/dev/null &&
	git notes --ref=vampyr show HEAD >note1 &&
	test $(wc -c <note1) -lt 1024 &&
	! grep "CONFIG_U" note1 &&
	git vampyr --expand -o out3 >/dev/null &&
	git notes --ref=vampyr show HEAD >note2 &&
	test_cmp note1 note2
'

test_expect_success KCONF 'a lost block traced to a probe is listed as toolchain, with the probe' '
	git vampyr --no-notes --expand --format=json -o out4 -- b.c >report.json &&
	python3 - <<-\PY &&
	import json
	r = json.load(open("report.json"))
	(c,) = r["configs"]
	(l,) = c["lost"]
	assert l["kind"] == "toolchain" and l["probe"] == "$(shell,echo 0)", l
	assert l["reason"] == "EXT=n (wanted y) <- BTF=n (wanted y) <- PV >= 116 [toolchain: $(shell,echo 0)]", l
	assert r["blocks_toolchain"] == 1 and r["blocks_covered_expanded"] == 0, r
	PY
	git vampyr --no-notes --expand -o out4 -- b.c >actual &&
	printf "toolchain\tb.c:1 B0\t%s\n" "\$(shell,echo 0): EXT=n (wanted y) <- BTF=n (wanted y) <- PV >= 116 [toolchain: \$(shell,echo 0)]" >expect &&
	grep "^toolchain" actual >actual.tc &&
	test_cmp expect actual.tc &&
	grep "^this toolchain rules out 1 block " actual
'

# RT has no prompt and F implies it (Linux's FUTEX and RT_MUTEXES): the fragment
# of "#ifndef CONFIG_RT" names nothing the user can set, kconfig turns RT on
# through F, the trace follows the imply to F and pins it.
test_expect_success KCONF 'a symbol raised by an imply is traced to its implier, which is pinned' '
	mkdir imply &&
	(
		cd imply &&
		git init -q &&
		printf "mainmenu \"imply\"\nconfig F\n\tbool \"f\"\n\tdefault y\n\timply RT\nconfig RT\n\tbool\n" >Kconfig &&
		printf "#ifndef CONFIG_RT\nint no_rt;\n#endif\n" >c.c &&
		git add . &&
		git commit -q -m imply &&
		git vampyr --no-notes --expand --kconfig="\"$KCONF\" --alldefconfig Kconfig" \
			--format=json -o out >report.json &&
		python3 - <<-\PY &&
		import json
		r = json.load(open("report.json"))
		(c,) = r["configs"]
		assert c["lost"] == [] and r["blocks_covered_expanded"] == 1, r
		assert c["pinned"] == ["F"] and c["assignments"] == ["# CONFIG_F is not set"], c
		PY
		# A kconfig that turns F on whatever the fragment says: the reason names the imply.
		git vampyr --no-notes --expand --format=json -o out2 \
			--kconfig="printf \"CONFIG_F=y\nCONFIG_RT=y\n\" >\"\$KCONFIG_CONFIG\"" >report.json &&
		python3 - <<-\PY
		import json
		r = json.load(open("report.json"))
		(c,) = r["configs"]
		(l,) = c["lost"]
		assert l["kind"] == "kconfig", l
		assert l["reason"] == "RT=y (wanted n) <- implied by F=y (wanted n) [set otherwise despite the fragment]", l
		PY
	)
'

# x86's headers define TIF_POLLING_NRFLAG: kconfig keeps the claim, but only the
# headers decide whether it is compiled; vampyr says so instead of counting it bare.
test_expect_success KCONF 'a kept claim that also needs a name outside Kconfig is said' '
	write_file d.c <<-\EOF &&
	#if defined(CONFIG_U1) && defined(TIF_POLLING_NRFLAG)
	int polling;
	#endif
	#ifdef CONFIG_U2
	int u2;
	#endif
	#if defined(CONFIG_U3) && defined(MODULE)
	int u3_module;
	#endif
	EOF
	git add d.c &&
	git commit -q -m "a header macro" &&
	git vampyr --no-notes --expand --format=json -o out8 -- d.c >report.json &&
	python3 - <<-\PY &&
	import json
	r = json.load(open("report.json"))
	covers = {b["line"]: b for c in r["configs"] for b in c["covers"]}
	assert covers[1]["outside"] == "TIF_POLLING_NRFLAG", covers
	assert "outside" not in covers[4] and "outside" not in covers[7], covers
	PY
	git vampyr --no-notes --expand -o out8 -- d.c >actual &&
	printf "outside\td.c:1 B0\talso needs TIF_POLLING_NRFLAG (not Kconfig)\n" >expect &&
	grep "^outside" actual >actual.o &&
	test_cmp expect actual.o &&
	grep "^after expansion: 3 of 3 blocks compiled (1 of them only if the names outside Kconfig agree)\$" actual &&
	git reset -q --hard HEAD~1
'

test_expect_success KCONF 'a second --expand reuses the tree of the same build files' '
	rm -rf .git/vampyr/trees writes &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" git vampyr --no-notes --expand -o out5 >/dev/null &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" git vampyr --no-notes --expand -o out5 >/dev/null &&
	# A commit that changes no build file (sub/ is not the top) keeps the tree.
	write_file sub/c.c <<-\EOF &&
	#ifdef CONFIG_U1
	int u1;
	#endif
	EOF
	git add sub/c.c &&
	git commit -q -m "a C file" &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" git vampyr --no-notes --expand -o out6 >/dev/null &&
	! ls -d .git/vampyr/trees/*/sub &&
	echo "config U101" >>Kconfig &&
	echo "	bool \"u101\"" >>Kconfig &&
	git commit -q -a -m "a symbol" &&
	VAMPYR_TEST_BLOB_WRITES="$PWD/writes" git vampyr --no-notes --expand -o out7 >/dev/null &&
	printf "3\n0\n0\n3\n" >expect &&
	test_cmp expect writes &&
	test $(ls .git/vampyr/trees | grep -v "\\." | wc -l) = 2 &&
	git reset -q --hard HEAD~2
'

test_done
