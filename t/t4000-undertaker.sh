#!/bin/sh
test_description='git undertaker: dead, undead and undefined blocks, commit by commit'
. ./test-lib.sh

test_expect_success 'setup: a Kconfig tree' '
	write_file Kconfig <<-\EOF &&
	mainmenu "Demo"
	config MODULES
		bool "modules"
		modules
	config FOO
		bool "foo"
	config BAR
		bool "bar"
		depends on FOO
	config SEL
		bool "sel"
		select FOO
	config TRI
		tristate "tri"
	config PLAIN
		bool "plain"
	choice
		prompt "pick"
	config CHOICE_A
		bool "a"
	config CHOICE_B
		bool "b"
	endchoice
	config ALWAYS
		def_bool y
	EOF
	write_file src/clean.c <<-\EOF &&
	#ifdef CONFIG_FOO
	int foo;
	#else
	int nofoo;
	#endif
	EOF
	git add Kconfig src && test_tick && git commit -q -m "base" && git tag base
'

check_new () {
	git undertaker --no-notes "$@" >actual
	echo $? >rc
}

test_expect_success 'a clean commit: exit 0, nothing printed' '
	test_expect_code 0 git undertaker --no-notes base >out &&
	test_must_be_empty out
'

test_expect_success 'nested #ifndef FOO inside #ifdef BAR (BAR depends on FOO) is dead by Kconfig' '
	write_file src/nested.c <<-\EOF &&
	#ifdef CONFIG_BAR
	int bar;
	#ifndef CONFIG_FOO
	int never;
	#endif
	#endif
	EOF
	git add Kconfig src && test_tick && git commit -q -m "nested" && git tag nested &&
	test_expect_code 1 git undertaker --no-notes nested >out &&
	grep "^src/nested.c:3: dead block B1 (kconfig, global): #ifndef CONFIG_FOO$" out &&
	test_line_count = 2 out
'

test_expect_success 'a misspelled symbol: one line per block, dead (missing NAME) or undefined' '
	write_file src/typo.c <<-\EOF &&
	#if defined(CONFIG_FOOO) || defined(CONFIG_BAR)
	int either;
	#endif
	#ifdef CONFIG_PLAN
	int typo;
	#endif
	EOF
	git add Kconfig src && test_tick && git commit -q -m "typo" && git tag typo &&
	test_expect_code 1 git undertaker --no-notes typo >out &&
	grep "^src/typo.c:1: undefined block B0 (missing CONFIG_FOOO, global): #if defined(CONFIG_FOOO) || defined(CONFIG_BAR)$" out &&
	grep "^src/typo.c:4: dead block B1 (missing CONFIG_PLAN, global): #ifdef CONFIG_PLAN$" out &&
	! grep "undefined block B1" out &&
	! grep "dead block B0" out &&
	test_line_count = 3 out &&
	test_expect_code 1 git undertaker --no-notes --format=json typo >out.json &&
	grep -o "{\"path\":[^}]*}" out.json >defects &&
	test_line_count = 2 defects &&
	grep "\"line\":1,.*\"kind\":\"undefined\",\"cause\":\"missing\",.*\"symbols\":\[\"CONFIG_FOOO\"\],\"missing\":\[\"CONFIG_FOOO\"\]" defects &&
	grep "\"line\":4,.*\"kind\":\"dead\",\"cause\":\"missing\",.*\"symbols\":\[\"CONFIG_PLAN\"\],\"missing\":\[\"CONFIG_PLAN\"\]" defects
'

test_expect_success '--explain names the closest existing symbol' '
	test_expect_code 1 git undertaker --no-notes --explain typo >out &&
	grep "CONFIG_PLAN is defined nowhere; did you mean CONFIG_PLAIN" out
'

test_expect_success '--explain names the Kconfig line of a kconfig cause' '
	test_expect_code 1 git undertaker --no-notes --explain nested >out &&
	grep "^    CONFIG_BAR (Kconfig:[0-9]*) depends on FOO$" out
'

test_expect_success 'two members of one choice: dead; a select: undead' '
	write_file src/choice.c <<-\EOF &&
	#if defined(CONFIG_CHOICE_A) && defined(CONFIG_CHOICE_B)
	int both;
	#endif
	#ifdef CONFIG_SEL
	# ifdef CONFIG_FOO
	int selected;
	# endif
	#endif
	#if defined(CONFIG_CHOICE_A) || defined(CONFIG_CHOICE_B)
	int one;
	#endif
	EOF
	git add Kconfig src && test_tick && git commit -q -m "choice" && git tag choice &&
	test_expect_code 1 git undertaker --no-notes choice >out &&
	grep "^src/choice.c:1: dead block B0 (kconfig, global)" out &&
	grep "^src/choice.c:5: undead block B2 (kconfig, global): # ifdef CONFIG_FOO$" out &&
	grep "^src/choice.c:9: undead block B3 (kconfig, global)" out
'

test_expect_success 'IS_MODULE of a bool is dead, of a tristate is not; #else of a code contradiction' '
	write_file src/tri.c <<-\EOF &&
	#if IS_MODULE(CONFIG_PLAIN)
	int never;
	#endif
	#if IS_MODULE(CONFIG_TRI)
	int module;
	#elif IS_BUILTIN(CONFIG_TRI)
	int builtin;
	#endif
	#ifdef CONFIG_PLAIN
	#ifndef CONFIG_PLAIN
	int code;
	#endif
	#endif
	#if 0
	int intentional;
	#endif
	#if 1
	int intentional;
	#endif
	EOF
	git add Kconfig src && test_tick && git commit -q -m "tri" && git tag tri &&
	test_expect_code 1 git undertaker --no-notes tri >out &&
	grep "^src/tri.c:1: dead block B0 (kconfig, global): #if IS_MODULE(CONFIG_PLAIN)$" out &&
	grep "^src/tri.c:10: dead block B4 (code, global): #ifndef CONFIG_PLAIN$" out &&
	! grep "B1\|B2\|B5\|B6" out
'

test_expect_success 'JSON Lines output' '
	test_expect_code 1 git undertaker --no-notes --format=json tri >out &&
	test_line_count = 1 out &&
	grep "^{\"commit\":\"$(git rev-parse tri)\",\"defects\":\[{\"path\":\"src/tri.c\",\"line\":1,\"end_line\":3,\"block\":0,\"kind\":\"dead\",\"cause\":\"kconfig\",\"scope\":\"global\",\"arches\":\[\],\"directive\":\"#if IS_MODULE(CONFIG_PLAIN)\",\"symbols\":\[\"CONFIG_PLAIN\"\],\"status\":\"new\"}" out
'

test_expect_success 'a Kconfig change kills a block of a file it does not touch' '
	sed -i "s/^bool \"plain\"/bool \"plain\"\ndepends on CHOICE_A \&\& CHOICE_B/" Kconfig &&
	grep -A1 "bool \"plain\"" Kconfig | grep "depends on CHOICE_A && CHOICE_B" &&
	git add Kconfig && test_tick && git commit -q -m "plain needs both" && git tag kchange &&
	test_expect_code 1 git undertaker --no-notes kchange >out &&
	cat >expect <<-\EOF &&
	Kconfig:15: dead (kconfig, global): config PLAIN (depends on CHOICE_A && CHOICE_B)
	src/tri.c:9: dead block B3 (kconfig, global): #ifdef CONFIG_PLAIN
	EOF
	tail -n +2 out >actual &&
	test_cmp expect actual
'

test_expect_success 'fixing a defect: --show=all lists it as fixed; exit 0' '
	git rm -q src/nested.c && test_tick && git commit -q -m "drop nested" && git tag fix &&
	test_expect_code 0 git undertaker --no-notes fix >out &&
	test_must_be_empty out &&
	git undertaker --no-notes --show=all fix >out &&
	grep "^src/nested.c:3: dead block B1 (kconfig, global): #ifndef CONFIG_FOO \[fixed\]$" out
'

test_expect_success 'a range checks each commit against its parent' '
	test_expect_code 1 git undertaker --no-notes base..fix >out &&
	grep "^src/nested.c:3: dead" out &&
	test $(grep -c "^src/nested.c:3: dead" out) = 1
'

test_expect_success 'an int used as a value is not undead; defined(X) && !X is alive' '
	cat >>Kconfig <<-\EOF &&
	config BASE_SMALL
		int
		default 0 if PLAIN
		default 1
	EOF
	write_file src/value.c <<-\EOF &&
	#if CONFIG_BASE_SMALL
	int small;
	#else
	int big;
	#endif
	#if defined(SOME_MACRO) && !SOME_MACRO
	int zero;
	#endif
	EOF
	git add Kconfig src && test_tick && git commit -q -m "value" && git tag value &&
	test_expect_code 0 git undertaker --no-notes value >out &&
	test_must_be_empty out
'

test_expect_success 'an edit in place: only what it changes is new; --show=all agrees' '
	write_file src/edit.c <<-\EOF &&
	#ifdef CONFIG_BAR
	#ifndef CONFIG_FOO
	int old_dead;
	#endif
	#endif
	#ifdef CONFIG_PLAIN
	int plain;
	#endif
	EOF
	git add src && test_tick && git commit -q -m "edit base" && git tag edit0 &&
	write_file src/edit.c <<-\EOF &&
	#ifdef CONFIG_CHOICE_A
	#ifdef CONFIG_CHOICE_B
	int both;
	#endif
	#endif
	#ifdef CONFIG_BAR
	int moved_down;
	#ifndef CONFIG_FOO
	int old_dead;
	#endif
	#endif
	#ifdef CONFIG_PLAIN
	int plain;
	#endif
	EOF
	git add src && test_tick && git commit -q -m "edit" && git tag edit1 &&
	test_expect_code 1 git undertaker --no-notes edit1 >out &&
	echo "src/edit.c:2: dead block B1 (kconfig, global): #ifdef CONFIG_CHOICE_B" >expect &&
	tail -n +2 out >actual &&
	test_cmp expect actual &&
	test_expect_code 1 git undertaker --no-notes --show=all edit1 >all &&
	grep "^src/edit.c:2: dead block B1 (kconfig, global): #ifdef CONFIG_CHOICE_B$" all &&
	grep "^src/edit.c:8: dead block B3 (kconfig, global): #ifndef CONFIG_FOO \[unchanged\]$" all &&
	grep "^src/edit.c:12: dead block B4 (kconfig, global): #ifdef CONFIG_PLAIN \[unchanged\]$" all &&
	test_line_count = 4 all
'

test_expect_success 'an edit in place that removes a defect reports it fixed' '
	write_file src/edit.c <<-\EOF &&
	#ifdef CONFIG_BAR
	int moved_down;
	#ifndef CONFIG_FOO
	int old_dead;
	#endif
	#endif
	#ifdef CONFIG_PLAIN
	int plain;
	#endif
	EOF
	git add src && test_tick && git commit -q -m "unedit" && git tag edit2 &&
	test_expect_code 0 git undertaker edit2 >out &&
	test_must_be_empty out &&
	git notes --ref=undertaker show edit2 >note &&
	grep "^src/edit.c:2: dead block B1 (kconfig, global): #ifdef CONFIG_CHOICE_B \[fixed\]$" note &&
	grep "^Undertaker: 0 new, 1 fixed$" note &&
	! grep "CONFIG_FOO\|CONFIG_PLAIN" note
'

test_expect_success 'an edit that #defines a CONFIG name changes the verdict of an unchanged block' '
	write_file src/def.c <<-\EOF &&
	#ifdef CONFIG_NO_SUCH_NAME
	int x;
	#endif
	EOF
	git add src && test_tick && git commit -q -m "def base" && git tag def0 &&
	test_expect_code 1 git undertaker --no-notes def0 >out &&
	grep "^src/def.c:1: dead block B0 (missing CONFIG_NO_SUCH_NAME, global)" out &&
	write_file src/def.c <<-\EOF &&
	#define CONFIG_NO_SUCH_NAME 1
	#ifdef CONFIG_NO_SUCH_NAME
	int x;
	#endif
	EOF
	git add src && test_tick && git commit -q -m "def" && git tag def1 &&
	test_expect_code 0 git undertaker --no-notes --show=all def1 >out &&
	grep "^src/def.c:1: dead block B0 (missing CONFIG_NO_SUCH_NAME, global): #ifdef CONFIG_NO_SUCH_NAME \[fixed\]$" out &&
	test_expect_code 0 git undertaker def1 &&
	git notes --ref=undertaker show def1 >note &&
	grep "^src/def.c:1: dead block B0 (missing CONFIG_NO_SUCH_NAME, global): #ifdef CONFIG_NO_SUCH_NAME \[fixed\]$" note
'

test_expect_success '--explain: where a missing symbol was defined before it disappeared' '
	cat >>Kconfig <<-\EOF &&
	config GOING_AWAY
		bool "soon gone"
	EOF
	git add Kconfig && test_tick && git commit -q -m "add GOING_AWAY" &&
	line=$(grep -n "^config GOING_AWAY" Kconfig | cut -d: -f1) &&
	sed -i "/^config GOING_AWAY/,+1d" Kconfig &&
	git add Kconfig && test_tick && git commit -q -m "drop GOING_AWAY" && git tag gone &&
	test_commit unrelated &&
	write_file src/late.c <<-\EOF &&
	#ifdef CONFIG_GOING_AWAY
	int late;
	#endif
	EOF
	git add src && test_tick && git commit -q -m "late user" &&
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "CONFIG_GOING_AWAY was defined at Kconfig:$line until $(git rev-parse --short=12 gone) (\"drop GOING_AWAY\")" out &&
	write_file src/typo.c <<-\EOF &&
	#ifdef CONFIG_NEVER_EVER_DEFINED
	#endif
	EOF
	git add src && test_tick && git commit -q -m "typo" &&
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "CONFIG_NEVER_EVER_DEFINED is defined by no Kconfig file" out &&
	! grep "was defined at" out
'

test_expect_success 'a Kconfig change of thousands of symbols still finds their users' '
	for i in $(seq 1 5000); do
		printf "config A_RATHER_LONG_GENERATED_SYMBOL_NAME_%d\n\tbool \"g\"\n" $i || return 1
	done >Kconfig.many &&
	echo "source \"Kconfig.many\"" >>Kconfig &&
	write_file src/many.c <<-\EOF &&
	#ifdef CONFIG_A_RATHER_LONG_GENERATED_SYMBOL_NAME_4321
	int many;
	#endif
	EOF
	git add Kconfig Kconfig.many src/many.c && test_tick && git commit -q -m "many" &&
	test_expect_code 0 git undertaker --no-notes HEAD >out &&
	test_must_be_empty out &&
	sed -i "s/A_RATHER_LONG_GENERATED_SYMBOL_NAME_/RENAMED_LONG_GENERATED_SYMBOL_NAME_/" Kconfig.many &&
	git add Kconfig.many && test_tick && git commit -q -m "rename them all" &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	grep "^src/many.c:1: dead block B0 (missing CONFIG_A_RATHER_LONG_GENERATED_SYMBOL_NAME_4321, global): #ifdef CONFIG_A_RATHER_LONG_GENERATED_SYMBOL_NAME_4321$" out
'

# A new root commit's tree: FOO, BAR (depends on FOO) and the Kconfig lines given on stdin.
orphan_with_foo_bar () {
	git checkout -q --orphan "$1" &&
	git rm -q -rf . &&
	{
		printf "config FOO\n\tbool \"foo\"\nconfig BAR\n\tbool \"bar\"\n\tdepends on FOO\n" &&
		cat
	} >Kconfig
}

test_expect_success 'a commit of many files gives the same result with any -j' '
	orphan_with_foo_bar wide <<-\EOF &&
	config OLD
		bool "old"
	EOF
	mkdir -p wide other &&
	for i in $(seq 1 40); do
		printf "#ifdef CONFIG_OLD\nint old$i;\n#endif\nint keep$i;\n" >wide/f$i.c || return 1
	done &&
	# Files the Kconfig change affects though the commit leaves them alone.
	for i in $(seq 1 20); do
		printf "#ifndef CONFIG_OLD\nint other$i;\n#endif\n" >other/o$i.c || return 1
	done &&
	git add Kconfig wide other && test_tick && git commit -q -m "wide base" &&
	for i in $(seq 1 40); do
		case $i in
		*[02468]) printf "#ifdef CONFIG_BAR\n#ifndef CONFIG_FOO\nint never$i;\n#endif\n#endif\n" ;;
		*) printf "#ifdef CONFIG_TYPO_$i\nint typo$i;\n#endif\n" ;;
		esac >>wide/f$i.c || return 1
	done &&
	sed -i "/config OLD/,+1d" Kconfig &&
	git add Kconfig wide && test_tick && git commit -q -m "wide change" &&
	for i in $(seq 1 20); do
		sed -i "s/CONFIG_TYPO_/CONFIG_FOO_TYPO_/" wide/f$i.c || return 1
	done &&
	git add wide && test_tick && git commit -q -m "wide again" &&
	test_expect_code 1 git undertaker --no-notes -j 1 HEAD~2.. >one &&
	test_expect_code 1 git undertaker --no-notes -j 2 HEAD~2.. >two &&
	test_expect_code 1 git undertaker --no-notes -j 5 --format=json HEAD~2.. >five.json &&
	test_expect_code 1 git undertaker --no-notes -j 1 --format=json HEAD~2.. >one.json &&
	test_cmp one two &&
	test_cmp one.json five.json &&
	# --explain walks history from each worker (make test SANITIZE=thread).
	test_expect_code 1 git undertaker --no-notes --explain -j 1 HEAD~1 >explain1 &&
	test_expect_code 1 git undertaker --no-notes --explain -j 3 HEAD~1 >explain3 &&
	test_cmp explain1 explain3 &&
	grep "CONFIG_OLD was defined at Kconfig:6 until .* (\"wide change\")" explain1 &&
	# The first commit: 20 dead #ifndef, 20 typos, 40 blocks of a removed
	# symbol and 20 undead ones in files it did not touch; the second
	# (edits in place): 10 typos renamed.
	test $(grep -c "dead block B2 (kconfig, global): #ifndef CONFIG_FOO" one) = 20 &&
	test $(grep -c "dead block B1 (missing CONFIG_TYPO_[0-9]*, global): #ifdef CONFIG_TYPO_" one) = 20 &&
	test $(grep -c "dead block B0 (missing CONFIG_OLD, global): #ifdef CONFIG_OLD" one) = 40 &&
	test $(grep -c "^other/o[0-9]*.c:1: undead block B0 (missing CONFIG_OLD, global): #ifndef CONFIG_OLD" one) = 20 &&
	test $(grep -c "dead block B1 (missing CONFIG_FOO_TYPO_[0-9]*, global): #ifdef CONFIG_FOO_TYPO_" one) = 10
'

test_expect_success 'a dead block of only #error is an assertion that holds, not a defect' '
	orphan_with_foo_bar asserts <<-\EOF &&
	config ALWAYS
		def_bool y
	EOF
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_BAR
	#ifdef CONFIG_FOO
	int ok;
	#else
	/* Kconfig says BAR needs FOO */
	#error "BAR needs FOO"
	#endif
	#ifndef CONFIG_FOO
	#error "BAR needs FOO"
	int not_only_error;
	#endif
	#ifndef CONFIG_FOO
	#warning "a warning is no assertion"
	#endif
	#endif
	#ifndef CONFIG_ALWAYS
	  #  error "never"
	#endif
	#ifdef CONFIG_FOO_TYPO
	#error "a typo keeps this from ever firing"
	#endif
	#ifdef CONFIG_ALWAYS
	#error "always fires"
	#endif
	EOF
	git add . && test_tick && git commit -q -m asserts &&
	test_expect_code 1 git undertaker --no-notes HEAD >out &&
	! grep "^a.c:4:" out &&
	! grep "^a.c:16:" out &&
	grep "^a.c:8: dead block B3 (kconfig, global): #ifndef CONFIG_FOO$" out &&
	grep "^a.c:12: dead block B4 (kconfig, global): #ifndef CONFIG_FOO$" out &&
	grep "^a.c:19: dead block B6 (missing CONFIG_FOO_TYPO, global): #ifdef CONFIG_FOO_TYPO$" out &&
	grep "^a.c:22: undead block B7 (kconfig, global): #ifdef CONFIG_ALWAYS$" out
'

test_expect_success 'a Kconfig error is said once, however many workers parse that Kconfig' '
	orphan_with_foo_bar kerr <<-\EOF &&
	config BROKEN
		bool "broken"
		depends on (FOO
	EOF
	mkdir -p many &&
	for i in $(seq 1 20); do
		printf "#ifdef CONFIG_FOO\nint f$i;\n#endif\n" >many/f$i.c || return 1
	done &&
	git add Kconfig many && test_tick && git commit -q -m kerr &&
	test_expect_code 1 git undertaker --no-notes --all -j 3 >out 2>err &&
	test $(grep -c "^git undertaker: error: Kconfig:8: " err) = 1 &&
	for i in $(seq 21 40); do
		printf "#ifndef CONFIG_FOO\nint g$i;\n#endif\n" >many/g$i.c || return 1
	done &&
	git add many && test_tick && git commit -q -m "more files" &&
	test_expect_code 1 git undertaker --no-notes -j 3 HEAD >out 2>err &&
	test $(grep -c "^git undertaker: error: Kconfig:8: " err) = 1
'

test_expect_success '--arch=<typo>: a swap of two letters is one typo (x68 is x86, not m68k), for every command' '
	git init -q arches &&
	(
		cd arches &&
		write_file Kconfig <<-\EOF &&
		mainmenu "Linux/$(SRCARCH)"
		source "arch/$(SRCARCH)/Kconfig"
		EOF
		write_file arch/x86/Kconfig <<-\EOF &&
		config X86
			def_bool y
		EOF
		write_file arch/m68k/Kconfig <<-\EOF &&
		config M68K
			def_bool y
		EOF
		git add . && test_tick && git commit -q -m arches &&
		test_expect_code 129 git undertaker --arch=x68 2>err &&
		grep "did you mean .x86.?" err &&
		test_expect_code 129 git undertaker --all --arch=x68 2>err &&
		grep "did you mean .x86.?" err &&
		test_expect_code 129 git undertaker --dump-model=files --arch=x68 2>err &&
		grep "did you mean .x86.?" err &&
		test_expect_code 129 git vampyr --arch=x68 2>err &&
		grep "did you mean .x86.?" err &&
		grep "^valid architectures: m68k x86$" err &&
		test_must_fail git rev-parse --verify -q refs/notes/undertaker &&
		test_must_fail git rev-parse --verify -q refs/notes/vampyr
	)
'

test_expect_success '--arch=<a path> is refused on any tree; a tree without architectures says what --arch does there' '
	git init -q noarch &&
	(
		cd noarch &&
		printf "config FOO\n\tbool \"foo\"\n" >Kconfig &&
		git add . && test_tick && git commit -q -m one &&
		for a in ../../etc x/y . -x ""; do
			test_expect_code 129 git undertaker --all --arch="$a" 2>err &&
			grep "invalid architecture name" err || return 1
		done &&
		test_expect_code 129 git vampyr --arch=../etc 2>err &&
		grep "invalid architecture name" err &&
		git undertaker --all --arch=foo 2>err &&
		grep "no architectures to choose from; --arch=foo only sets ARCH" err
	) &&
	(cd arches && test_expect_code 129 git undertaker --all --arch=../x86 2>err) &&
	grep "invalid architecture name" arches/err
'

test_expect_success 'a replaced commit is checked as git log shows it (git replace), the original with GIT_NO_REPLACE_OBJECTS' '
	git init -q replaced &&
	(cd replaced &&
	 printf "config FOO\n\tbool \"foo\"\n" >Kconfig &&
	 git add Kconfig && test_tick && git commit -q -m base &&
	 printf "#ifdef CONFIG_FOOO\nint x;\n#endif\n" >a.c &&
	 git add a.c && test_tick && git commit -q -m typo && git tag typo &&
	 git reset -q --hard HEAD^ &&
	 printf "#ifdef CONFIG_FOO\nint x;\n#endif\n" >a.c &&
	 git add a.c && test_tick && git commit -q -m fixed && git tag fixed &&
	 git replace typo fixed &&
	 git undertaker --no-notes typo^! >out &&
	 test_must_be_empty out &&
	 test_expect_code 1 env GIT_NO_REPLACE_OBJECTS=1 git undertaker --no-notes typo^! >out &&
	 grep "^a.c:1: dead block B0 (missing CONFIG_FOOO, global)" out)
'

test_done
