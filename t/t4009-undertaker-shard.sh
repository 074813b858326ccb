#!/bin/sh
test_description='git undertaker --shard=K/N: a range or a census in shares, notes merged with git notes merge'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup: eight commits, some adding defects, one changing Kconfig' '
	write_foo_bar_kconfig </dev/null &&
	git add Kconfig && test_tick && git commit -q -m base && git tag base &&
	for i in 1 2 3 4 5 6 7; do
		case $i in
		2|5) printf "#ifdef CONFIG_BAR\n#ifndef CONFIG_FOO\nint never$i;\n#endif\n#endif\n" ;;
		4) printf "#ifdef CONFIG_GONE$i\nint gone;\n#endif\n" ;;
		*) printf "#ifdef CONFIG_FOO\nint f$i;\n#endif\n" ;;
		esac >f$i.c &&
		git add f$i.c && test_tick && git commit -q -m "f$i" || return 1
	done &&
	printf "config BAZ\n\tbool \"baz\"\n\tdepends on !FOO\n" >>Kconfig &&
	printf "#ifdef CONFIG_BAZ\n#ifdef CONFIG_FOO\nint baz;\n#endif\n#endif\n" >g.c &&
	git add Kconfig g.c && test_tick && git commit -q -m "baz" && git tag tip
'

test_expect_success 'a bad --shard is a usage error' '
	test_expect_code 129 git undertaker --shard=0/3 base..tip 2>err &&
	grep "shard" err &&
	test_expect_code 129 git undertaker --shard=4/3 base..tip &&
	test_expect_code 129 git undertaker --shard=1 base..tip &&
	test_expect_code 129 git undertaker --shard=1/2x base..tip &&
	test_expect_code 129 git undertaker --shard=1/99999999999999999999 base..tip &&
	test_expect_code 129 git undertaker --shard=-1/3 base..tip &&
	test_expect_code 129 git undertaker --shard=1/+3 base..tip
'

test_expect_success 'one run in one clone' '
	git clone -q . single &&
	(cd single && test_expect_code 1 git undertaker base..tip >../single.out) &&
	git -C single notes --ref=undertaker list >single.notes &&
	test_line_count = 8 single.notes
'

test_expect_success 'three shards in three clones: each checks every third commit' '
	for k in 1 2 3; do
		git clone -q . shard$k &&
		(cd shard$k && git undertaker --shard=$k/3 base..tip >../shard$k.out; test $? -le 1) &&
		git -C shard$k notes --ref=undertaker list >shard$k.notes || return 1
	done &&
	test_line_count = 3 shard1.notes &&
	test_line_count = 3 shard2.notes &&
	test_line_count = 2 shard3.notes &&
	git rev-list --reverse --topo-order base..tip >order &&
	sed -n "1p;4p;7p" order >expect &&
	cut -d" " -f2 shard1.notes | sort >actual &&
	sort expect >expect.sorted &&
	test_cmp expect.sorted actual
'

test_expect_success 'their notes merged into a fourth clone are the single run'"'"'s' '
	git clone -q . merged &&
	for k in 1 2 3; do
		# Both refs, the README'"'"'s way: into refs/notes-remote/, then merged.
		git -C merged fetch -q ../shard$k "refs/notes/*:refs/notes-remote/shard$k/*" &&
		for ref in undertaker undertaker-data; do
			git -C merged notes --ref=$ref merge -q -s cat_sort_uniq \
				refs/notes-remote/shard$k/$ref || return 1
		done
	done &&
	for ref in undertaker undertaker-data; do
		git -C single notes --ref=$ref list >single.notes &&
		git -C merged notes --ref=$ref list >merged.notes &&
		test_line_count = 8 single.notes &&
		sort single.notes >expect &&
		sort merged.notes >actual &&
		test_cmp expect actual || return 1
	done &&
	for c in $(git rev-list base..tip); do
		for ref in undertaker undertaker-data; do
			git -C single notes --ref=$ref show $c >expect &&
			git -C merged notes --ref=$ref show $c >actual &&
			test_cmp expect actual || return 1
		done
	done &&
	(cd single && test_expect_code 1 git undertaker --no-notes --format=json base..tip >../fresh.json) &&
	git -C merged rev-parse refs/notes/undertaker refs/notes/undertaker-data >before &&
	(cd merged && test_expect_code 1 git undertaker --format=json base..tip >../merged.json) &&
	test_cmp fresh.json merged.json &&
	# Printed from the merged notes: nothing was checked, nothing written.
	git -C merged rev-parse refs/notes/undertaker refs/notes/undertaker-data >after &&
	test_cmp before after &&
	git -C merged fsck --no-dangling >fsck.out 2>&1 &&
	test_must_be_empty fsck.out
'

test_expect_success '--all --shard: the files by path hash, together the whole census' '
	test_expect_code 1 git undertaker --all tip >all.out &&
	grep "^[a-z0-9]*\.c:" all.out | sort >expect &&
	for k in 1 2 3; do
		git undertaker --all --shard=$k/3 tip >part$k.out; test $? -le 1 || return 1
	done &&
	cat part1.out part2.out part3.out | grep "^[a-z0-9]*\.c:" | sort >actual &&
	test_cmp expect actual &&
	test $(grep -c "\.c:" part1.out) -lt $(wc -l <expect)
'

test_done
