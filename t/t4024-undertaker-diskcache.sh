#!/bin/sh
test_description='git undertaker: results kept on disk between runs ($GIT_DIR/undertaker/cache)'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

# A U-Boot-style tree (its headers define CONFIG_ names of their own): a.c
# names CONFIG_BOARD_X, which only include/configs/board.h defines, and
# CONFIG_TYPO, which nothing defines (a missing name: dead).
test_expect_success 'setup' '
	write_foo_bar_kconfig </dev/null &&
	write_file include/linux/kconfig.h <<-\EOF &&
	#define CONFIG_IS_ENABLED(option) config_enabled(CONFIG_VAL(option))
	EOF
	write_file include/configs/board.h <<-\EOF &&
	#define CONFIG_BOARD_X 1
	EOF
	write_file Makefile <<-\EOF &&
	obj-y += a.o
	EOF
	write_file a.c <<-\EOF &&
	int a;
	EOF
	git add . && test_tick && git commit -q -m base &&
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_BOARD_X
	int board;
	#endif
	#ifdef CONFIG_TYPO
	int typo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m change && git tag change &&
	cat >expect <<-\EOF
	a.c:4: dead block B1 (missing CONFIG_TYPO, global): #ifdef CONFIG_TYPO
	EOF
'

cache_stats () {
	grep "^disk cache: " "$1"
}

test_expect_success 'the first run computes and keeps the scans' '
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	sed -n "/: dead/p" out >defects &&
	test_cmp expect defects &&
	cache_stats err >stats &&
	grep "^disk cache: 0 hits, .* 0 bad, [1-9][0-9]* written$" stats &&
	ls .git/undertaker/cache >entries &&
	grep "^buildfiles-" entries &&
	grep "^defines-" entries
'

test_expect_success 'a second process reads them back, the same defects' '
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	sed -n "/: dead/p" out >defects &&
	test_cmp expect defects &&
	grep "^disk cache: [1-9][0-9]* hits, 0 misses, 0 bad, 0 written$" err
'

test_expect_success 'a corrupt byte: a warning, computed again, the same defects' '
	f=$(ls .git/undertaker/cache/buildfiles-*) &&
	size=$(wc -c <"$f") &&
	# The last byte of the contents, flipped.
	{ head -c $((size - 1)) "$f" && printf "\\377"; } >"$f.new" &&
	mv "$f.new" "$f" &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	grep "warning: the cache entry .*buildfiles-.* is bad (checksum mismatch): removed, computing it again" err &&
	grep "^disk cache: .* 1 bad, [1-9][0-9]* written$" err &&
	sed -n "/: dead/p" out >defects &&
	test_cmp expect defects &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! 2>err &&
	grep "^disk cache: [1-9][0-9]* hits, 0 misses, 0 bad, 0 written$" err
'

test_expect_success 'a truncated entry: a warning, computed again' '
	f=$(ls .git/undertaker/cache/defines-*) &&
	head -c 100 "$f" >"$f.new" &&
	mv "$f.new" "$f" &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	grep "warning: the cache entry .*defines-.* is bad (truncated" err &&
	sed -n "/: dead/p" out >defects &&
	test_cmp expect defects
'

test_expect_success 'garbage in place of an entry: a warning, computed again' '
	f=$(ls .git/undertaker/cache/buildfiles-*) &&
	echo garbage >"$f" &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	grep "warning: the cache entry .*buildfiles-.* is bad" err &&
	sed -n "/: dead/p" out >defects &&
	test_cmp expect defects
'

test_expect_success 'an entry of another version is computed again, quietly' '
	for f in .git/undertaker/cache/*
	do
		sed "2s/.*/0.0.0-other/" "$f" >"$f.new" &&
		mv "$f.new" "$f" || return 1
	done &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	! grep warning err &&
	grep "^disk cache: 0 hits, [1-9][0-9]* misses, 0 bad, [1-9][0-9]* written$" err &&
	sed -n "/: dead/p" out >defects &&
	test_cmp expect defects
'

test_expect_success 'a changed build file misses the cache; so does a changed header' '
	echo "# a comment" >>Makefile &&
	git add . && test_tick && git commit -q -m makefile &&
	UNDERTAKER_STATS=1 git undertaker --no-notes HEAD^! 2>err &&
	cache_stats err >stats &&
	! grep "^disk cache: .* 0 written$" stats &&
	ls .git/undertaker/cache/buildfiles-* >entries &&
	test_line_count = 2 entries &&
	echo "#define CONFIG_BOARD_Y 1" >>include/configs/board.h &&
	git add . && test_tick && git commit -q -m header &&
	# A range reads the headers of the first commit of each set of build files: one commit alone.
	test_might_fail git undertaker --no-notes --all HEAD >/dev/null 2>err &&
	ls .git/undertaker/cache/defines-* >entries &&
	test_line_count = 2 entries
'

test_expect_success 'a header that now defines the name: no longer missing' '
	write_file include/configs/board.h <<-\EOF &&
	#define CONFIG_BOARD_X 1
	#define CONFIG_TYPO 1
	EOF
	git add . && test_tick && git commit -q -m "define TYPO" &&
	git undertaker --no-notes --show=all HEAD >out &&
	! grep "CONFIG_TYPO" out
'

test_expect_success 'the cache off (undertaker.cacheSize=0): nothing kept, the same defects' '
	rm -rf .git/undertaker/cache &&
	UNDERTAKER_STATS=1 test_expect_code 1 git -c undertaker.cacheSize=0 undertaker --no-notes change^! >out 2>err &&
	! grep "^disk cache" err &&
	! test -e .git/undertaker/cache &&
	sed -n "/: dead/p" out >defects &&
	test_cmp expect defects
'

test_expect_success 'a bad undertaker.cacheSize is a warning' '
	test_expect_code 1 git -c undertaker.cacheSize=lots undertaker --no-notes change^! >out 2>err &&
	grep "warning: undertaker.cacheSize: .lots. is not a size" err
'

test_expect_success 'a cache that cannot be written only costs time' '
	rm -rf .git/undertaker/cache &&
	mkdir -p .git/undertaker &&
	echo "not a directory" >.git/undertaker/cache &&
	test_when_finished "rm -f .git/undertaker/cache" &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes change^! >out 2>err &&
	! grep -i "warning\|error" err &&
	grep "^disk cache: .* 0 written, some could not be written$" err &&
	sed -n "/: dead/p" out >defects &&
	test_cmp expect defects
'

test_expect_success '--gc-cache: the budget, oldest use first out; other versions go' '
	rm -rf .git/undertaker/cache &&
	test_expect_code 1 git undertaker --no-notes change^! >/dev/null &&
	git undertaker --no-notes HEAD^! >/dev/null &&
	ls .git/undertaker/cache >before &&
	test_line_count -gt 4 before &&
	git undertaker --gc-cache >out &&
	grep "^removed 0 cache entries" out &&
	# Another version'"'"'s entry goes; so does everything over a 1-byte budget.
	f=$(ls .git/undertaker/cache/defines-* | head -n 1) &&
	sed "2s/.*/0.0.0-other/" "$f" >"$f.new" && mv "$f.new" "$f" &&
	git undertaker --gc-cache >out &&
	grep "^removed 1 cache entries (.*); $(($(wc -l <before) - 1)) kept" out &&
	! test -e "$f" &&
	git -c undertaker.cacheSize=1 undertaker --gc-cache >out &&
	ls .git/undertaker/cache >after &&
	test_must_be_empty after
'

test_expect_success 'a run trims the cache to its budget, least recently used first' '
	rm -rf .git/undertaker/cache &&
	git -c undertaker.cacheSize=1k undertaker --no-notes HEAD^! >/dev/null &&
	du -b .git/undertaker/cache >/dev/null &&
	total=$(cat .git/undertaker/cache/* | wc -c) &&
	test $total -le 1024
'

test_expect_success 'a Kconfig change: the files that name its symbols are kept too' '
	rm -rf .git/undertaker/cache &&
	write_file c.c <<-\EOF &&
	#ifdef CONFIG_GONE
	int gone;
	#endif
	EOF
	printf "config GONE\n\tbool \"gone\"\n" >>Kconfig &&
	git add . && test_tick && git commit -q -m "add GONE" &&
	write_foo_bar_kconfig </dev/null &&
	git add . && test_tick && git commit -q -m "remove GONE" &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >expect.gone 2>err &&
	grep "c.c:1: dead block B0 (missing CONFIG_GONE" expect.gone &&
	ls .git/undertaker/cache/affected-* >entries &&
	test_line_count = 1 entries &&
	UNDERTAKER_STATS=1 test_expect_code 1 git undertaker --no-notes HEAD^! >out 2>err &&
	grep "^disk cache: [1-9][0-9]* hits, 0 misses, 0 bad, 0 written$" err &&
	test_cmp expect.gone out
'

test_expect_success 'a Kbuild map is kept, and read back the same' '
	rm -rf .git/undertaker/cache &&
	git -c undertaker.cacheSize=0 undertaker --dump-model=files HEAD >expect.files &&
	git undertaker --dump-model=files HEAD >out &&
	test_cmp expect.files out &&
	ls .git/undertaker/cache/kbuild-* >entries &&
	test_line_count = 1 entries &&
	UNDERTAKER_STATS=1 git undertaker --dump-model=files HEAD >out 2>err &&
	grep "^disk cache: [1-9][0-9]* hits, 0 misses, 0 bad, 0 written$" err &&
	test_cmp expect.files out
'

test_expect_success 'a Kbuild map is built again when a file its Makefiles include changes' '
	git init -q kb &&
	(
		cd kb &&
		write_foo_bar_kconfig </dev/null &&
		echo "obj-y += drivers/" >Kbuild &&
		write_file drivers/Makefile <<-\EOF &&
		include $(srctree)/$(src)/rules.inc
		obj-y += a.o
		EOF
		echo "obj-\$(CONFIG_FOO) += c.o" >drivers/rules.inc &&
		touch drivers/a.c drivers/c.c &&
		git add . && test_tick && git commit -q -m "rules.inc" &&
		git undertaker --dump-model=files HEAD >../kb.out &&
		grep "^drivers/c.c	CONFIG_FOO$" ../kb.out &&
		ls .git/undertaker/cache/kbuild-* &&
		echo "obj-\$(CONFIG_BAR) += c.o" >drivers/rules.inc &&
		git add . && test_tick && git commit -q -m "rules.inc for BAR" &&
		git undertaker --dump-model=files HEAD >../kb.out &&
		grep "^drivers/c.c	CONFIG_BAR$" ../kb.out &&
		git mv drivers/c.c drivers/d.c && test_tick && git commit -q -m "a file renamed" &&
		git -c undertaker.cacheSize=0 undertaker --dump-model=files HEAD >../kb.expect &&
		git undertaker --dump-model=files HEAD >../kb.out &&
		test_cmp ../kb.expect ../kb.out &&
		grep "^drivers/d.c	" ../kb.out &&
		git checkout -q HEAD~2 &&
		UNDERTAKER_STATS=1 git undertaker --dump-model=files HEAD >../kb.out 2>../kb.err &&
		grep "^drivers/c.c	CONFIG_FOO$" ../kb.out
	)
'

test_expect_success '--gc-cache takes nothing else' '
	test_expect_code 129 git undertaker --gc-cache HEAD 2>err &&
	grep "takes no other option" err
'

test_expect_success 'a worktree keeps its cache in the common directory' '
	rm -rf .git/undertaker/cache &&
	git worktree add -q other-worktree change &&
	(cd other-worktree && test_expect_code 1 git undertaker --no-notes HEAD^! >/dev/null) &&
	ls .git/undertaker/cache >entries &&
	test_line_count -gt 0 entries
'

test_done
