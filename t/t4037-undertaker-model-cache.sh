#!/bin/sh
test_description='git undertaker: each architecture'"'"'s model kept on disk, read back by the next process'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

# A model that holds every kind of constraint: a tristate under MODULES, a
# select, a choice, a string with a conditional default.
test_expect_success 'setup' '
	write_foo_bar_kconfig <<-\EOF &&
	config BAZ
		tristate "baz"
		depends on BAR
		select QUX
	config QUX
		bool
	choice
		prompt "pick"
	config PICK_A
		bool "a"
	config PICK_B
		bool "b"
		depends on FOO
	endchoice
	config NAME
		string "name"
		default "x" if FOO
	config MODULES
		bool "modules"
		modules
	EOF
	write_file Makefile <<-\EOF &&
	obj-y += a.o
	EOF
	write_file a.c <<-\EOF &&
	int a;
	EOF
	git add . && test_tick && git commit -q -m base &&
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_BAZ_MODULE
	#ifndef CONFIG_QUX
	int never;
	#endif
	#endif
	#if defined(CONFIG_PICK_B) && !defined(CONFIG_FOO)
	int nor_this;
	#endif
	EOF
	git add . && test_tick && git commit -q -m change &&
	git -c undertaker.cacheSize=0 undertaker --no-notes HEAD^! >expect;
	test $? = 1 &&
	grep "a.c:2: dead" expect && grep "a.c:6: dead" expect
'

test_expect_success 'off by default: no model entry' '
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	test_cmp expect out &&
	grep "^model build: " err &&
	ls .git/undertaker/cache >entries &&
	! grep "^model-" entries &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	grep "^model build: " err &&
	git config undertaker.cacheModels true
'

test_expect_success 'the first process builds the model and keeps it' '
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	test_cmp expect out &&
	grep "^model build: " err &&
	! grep "^model read" err &&
	ls .git/undertaker/cache >entries &&
	grep "^model-" entries
'

test_expect_success 'a second process reads it back (the counter says so): the same defects' '
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	test_cmp expect out &&
	grep "^model read (disk cache): " err &&
	! grep "^model build" err &&
	! grep warning err
'

test_expect_success 'the model read back is the model built: DIMACS, answers' '
	git -c undertaker.cacheSize=0 undertaker --dump-model=dimacs >built.cnf &&
	git undertaker --dump-model=dimacs >first.cnf &&
	UNDERTAKER_STATS=1 git undertaker --dump-model=dimacs >read.cnf 2>err &&
	grep "^model read (disk cache): " err &&
	test_cmp built.cnf read.cnf &&
	test_cmp built.cnf first.cnf &&
	test-model . dimacs >helper.cnf &&
	test-model --reload . dimacs >reloaded.cnf &&
	test_cmp helper.cnf reloaded.cnf &&
	test_expect_code 1 test-model . sat BAZ=m QUX=n >sat-built &&
	test_expect_code 1 test-model --reload . sat BAZ=m QUX=n >sat-read &&
	test_cmp sat-built sat-read && grep "^unsat" sat-read &&
	test-model --reload . sat BAZ=m PICK_A=y >sat-read &&
	grep "^sat" sat-read
'

test_expect_success 'a damaged entry is refused or still a sound model, never a crash; a cut one always refused' '
	test-model . damage >out &&
	grep "^changed bytes: [1-9][0-9]* refused" out &&
	grep "^cuts taken: 0 of " out
'

test_expect_success 'a corrupt model entry: a warning, the model built again, the same defects' '
	f=$(ls .git/undertaker/cache/model-*) &&
	size=$(wc -c <"$f") &&
	{ head -c $((size - 1)) "$f" && printf "\\377"; } >"$f.new" &&
	mv "$f.new" "$f" &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	grep "warning: the cache entry .*model-.* is bad (checksum mismatch): removed, computing it again" err &&
	grep "^model build: " err &&
	test_cmp expect out &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	grep "^model read (disk cache): " err
'

test_expect_success 'any changed Kconfig file misses the cache: a new entry, the new model' '
	mkdir -p sub &&
	write_file sub/Kconfig <<-\EOF &&
	config QUX2
		bool "qux2"
	EOF
	echo "source \"sub/Kconfig\"" >>Kconfig &&
	git add . && test_tick && git commit -q -m "source sub" &&
	git undertaker --no-notes HEAD^! >/dev/null 2>&1;
	ls .git/undertaker/cache/model-* >before &&
	write_file sub/Kconfig <<-\EOF &&
	config QUX2
		bool "qux2"
		depends on FOO && !FOO
	EOF
	git add . && test_tick && git commit -q -m "QUX2 never" &&
	UNDERTAKER_STATS=1 git undertaker --no-notes --dump-model=dimacs >cached.cnf 2>err &&
	grep "^model build: " err &&
	git -c undertaker.cacheSize=0 undertaker --dump-model=dimacs >fresh.cnf &&
	test_cmp fresh.cnf cached.cnf &&
	ls .git/undertaker/cache/model-* >after &&
	test $(wc -l <after) -gt $(wc -l <before)
'

test_expect_success 'a commit that changes only Kconfig files shares its parent'"'"'s Kbuild map' '
	write_file sub/Kconfig <<-\EOF &&
	config QUX2
		bool "qux2 again"
	EOF
	echo "int more;" >>a.c &&
	git add sub/Kconfig a.c && test_tick && git commit -q -m "Kconfig and a.c" &&
	UNDERTAKER_STATS=1 git undertaker --no-notes HEAD^! >out 2>err &&
	grep "^kbuild map: " err &&
	grep "^kbuild map (shared): " err &&
	git -c undertaker.cacheSize=0 undertaker --no-notes HEAD^! >expect-shared &&
	test_cmp expect-shared out &&
	echo "obj-y += b.o" >>Makefile && echo "int b;" >b.c &&
	write_file sub/Kconfig <<-\EOF &&
	config QUX2
		bool "qux2, the third"
	EOF
	git add sub/Kconfig Makefile b.c && test_tick && git commit -q -m "Kconfig and Makefile" &&
	UNDERTAKER_STATS=1 git undertaker --no-notes HEAD^! >out 2>err &&
	! grep "^kbuild map (shared)" err
'

test_expect_success 'per architecture: each its own entry' '
	git init -q arches && (
		cd arches &&
		git config undertaker.cacheModels true &&
		mkdir -p arch/x86 arch/arm &&
		printf "source \"arch/\$(SRCARCH)/Kconfig\"\nconfig COMMON\n\tbool \"c\"\n" >Kconfig &&
		printf "config X86\n\tdef_bool y\n" >arch/x86/Kconfig &&
		printf "config ARM\n\tdef_bool y\nconfig ARM_ONLY\n\tbool \"a\"\n\tdepends on COMMON\n" >arch/arm/Kconfig &&
		git add . && test_tick && git commit -q -m arches &&
		git undertaker --dump-model=dimacs --arch=arm >arm1.cnf &&
		git undertaker --dump-model=dimacs --arch=x86 >x861.cnf &&
		UNDERTAKER_STATS=1 git undertaker --dump-model=dimacs --arch=arm >arm2.cnf 2>err &&
		grep "^model read (disk cache) arm: " err &&
		test_cmp arm1.cnf arm2.cnf &&
		! cmp -s arm1.cnf x861.cnf &&
		ls .git/undertaker/cache/model-* >entries &&
		test_line_count = 2 entries &&
		# The architectures themselves, by root tree: read back, the same.
		ls .git/undertaker/cache/arches-* >entries &&
		test_line_count = 1 entries &&
		git undertaker --dump-model=dimacs --arch=arm >arm3.cnf &&
		test_cmp arm1.cnf arm3.cnf &&
		test_must_fail git undertaker --dump-model=dimacs --arch=sparc 2>err &&
		grep "arm" err && grep "x86" err
	)
'

test_done
