#!/bin/sh
test_description='notes: layouts git accepts, runs at once, no pack left by a kill'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

# A notes tree with a file that is no note, sorted before every note, as a
# user who commits a .gitattributes onto the notes ref makes it.
add_non_note () {
	ref=$1 &&
	git read-tree --index-output=idx.tmp $ref &&
	blob=$(echo "* -diff" | git hash-object -w --stdin) &&
	GIT_INDEX_FILE=idx.tmp git update-index --add --cacheinfo 100644,$blob,.gitattributes &&
	blob=$(echo "fan-out dir keeps me" | git hash-object -w --stdin) &&
	GIT_INDEX_FILE=idx.tmp git update-index --add --cacheinfo 100644,$blob,ab/README &&
	tree=$(GIT_INDEX_FILE=idx.tmp git write-tree) &&
	rm -f idx.tmp &&
	git update-ref $ref $(git commit-tree -p $ref -m "non-notes" $tree)
}

# git fsck finds nothing but unreachable objects (a killed run leaves some).
fsck_clean () {
	git fsck --no-progress >fsck.out 2>&1 &&
	sed -e "/^dangling /d" fsck.out >fsck &&
	test_must_be_empty fsck
}

test_expect_success 'setup' '
	setup_foo_bar_commits
'

test_expect_success 'undertaker: a notes tree holding a .gitattributes and a stray file' '
	git notes --ref=undertaker add -m x base &&
	add_non_note refs/notes/undertaker &&
	test_expect_code 1 git undertaker bad >out &&
	grep "^b.c:2: dead block B1" out &&
	git notes --ref=undertaker show bad >note &&
	grep "Undertaker: 1 new" note &&
	git notes --ref=undertaker show base >note && echo x >expect && test_cmp expect note &&
	git cat-file -p refs/notes/undertaker:.gitattributes >actual &&
	echo "* -diff" >expect && test_cmp expect actual &&
	git cat-file -p refs/notes/undertaker:ab/README >actual &&
	echo "fan-out dir keeps me" >expect && test_cmp expect actual &&
	fsck_clean
'

test_expect_success 'vampyr: the same layout' '
	git notes --ref=vampyr add -m x base &&
	add_non_note refs/notes/vampyr &&
	git vampyr -o frags bad >out &&
	git notes --ref=vampyr show bad >note &&
	test -s note &&
	git cat-file -e refs/notes/vampyr:.gitattributes &&
	git cat-file -e refs/notes/vampyr:ab/README
'

test_expect_success SPATCH 'backport: the same layout' '
	mkdir -p rules &&
	write_file rules/0001-rename.cocci <<-\EOF &&
	// Backport: 5.10
	@@
	@@
	-foo
	+foo_old
	EOF
	git notes --ref=backport add -m x base &&
	add_non_note refs/notes/backport &&
	git backport --rules=rules --target=1.0 bad >out &&
	git notes --ref=backport show bad >note &&
	git cat-file -e refs/notes/backport:.gitattributes &&
	git cat-file -e refs/notes/backport:ab/README
'

test_expect_success '--notes-ref outside refs/notes/ is refused, as git refuses it' '
	git rev-parse HEAD >head.before &&
	test_expect_code 129 git undertaker --notes-ref=refs/heads/main bad 2>err &&
	grep "refusing to write notes in refs/heads/main (outside of refs/notes/)" err &&
	test_expect_code 129 git vampyr --notes-ref=refs/tags/x bad 2>err &&
	grep "outside of refs/notes/" err &&
	test_expect_code 129 git undertaker --notes-ref="bad..name" bad 2>err &&
	grep "not a valid ref name" err &&
	git rev-parse HEAD >head.after && test_cmp head.before head.after &&
	test_expect_code 1 git undertaker --notes-ref=notes/elsewhere bad &&
	git notes --ref=elsewhere show bad >/dev/null
'

test_expect_success 'setup: 20 commits' '
	for i in $(seq 20); do
		echo "int f$i;" >f$i.c && git add f$i.c && test_tick &&
		git commit -q -m "f$i" || return 1
	done
'

# Every run must exit 0 or 1, never 128, and every note be there at the end.
check_runs () {
	for p in $pids; do
		wait $p
		echo $? >>codes
	done &&
	! grep -v "^[01]$" codes &&
	fsck_clean
}

test_expect_success '20 runs at once over the same range all keep their notes' '
	rm -f codes && pids= &&
	for i in $(seq 20); do
		git undertaker --force --notes-ref=same bad..HEAD >out.$i 2>err.$i &
		pids="$pids $!"
	done &&
	check_runs &&
	git notes --ref=same list >notes &&
	test_line_count = 20 notes &&
	git rev-list refs/notes/same >commits &&
	test_line_count = 20 commits
'

test_expect_success '10 runs at once over disjoint ranges: every note is there' '
	rm -f codes && pids= &&
	for i in $(seq 0 2 18); do
		git undertaker --notes-ref=disjoint HEAD~$((i + 2))..HEAD~$i >out.$i 2>err.$i &
		pids="$pids $!"
	done &&
	check_runs &&
	git notes --ref=disjoint list >notes &&
	test_line_count = 20 notes &&
	for c in $(git rev-list bad..HEAD); do
		git notes --ref=disjoint show $c >note &&
		grep "^Undertaker: 0 new, 0 fixed" note || return 1
	done
'

test_expect_success 'notes objects are written loose, never as a pack' '
	ls .git/objects/pack >packs.before &&
	git rev-list bad..HEAD | sed "s/\$/ a note/" | test-notes write refs/notes/loose &&
	ls .git/objects/pack >packs.after &&
	test_cmp packs.before packs.after &&
	git notes --ref=loose list >notes && test_line_count = 20 notes
'

test_expect_success 'kill -9 while writing 20000 notes leaves no temporary pack behind' '
	perl -MDigest::SHA=sha1_hex -e "print sha1_hex(\$_), qq( note \$_\n) for 1..20000" >many &&
	for delay in 0.05 0.2 0.5 1; do
		{ test-notes write refs/notes/killed <many >/dev/null 2>&1 & } &&
		pid=$! &&
		sleep $delay &&
		kill -9 $pid
		wait $pid
		ls .git/objects/pack | grep "pack_git2" >tmp.packs
		test_must_be_empty tmp.packs || return 1
	done &&
	fsck_clean
'

test_expect_success 'a stale lock file: said at once, with the file and what to do' '
	git rev-list -1 HEAD | sed "s/\$/ a note/" >one &&
	mkdir -p .git/refs/notes &&
	>.git/refs/notes/stale.lock &&
	test_must_fail test-notes write refs/notes/stale <one 2>err &&
	rm .git/refs/notes/stale.lock &&
	grep "cannot lock it: .*/refs/notes/stale.lock. exists; nothing written" err &&
	grep "remove the file" err &&
	! grep "kept changing" err &&
	test_must_fail git rev-parse --verify -q refs/notes/stale
'

test_expect_success 'a symbolic notes ref: the notes go to its target, as git update-ref writes' '
	git symbolic-ref refs/notes/alias refs/notes/target &&
	test-notes write refs/notes/alias <one &&
	test "$(git symbolic-ref refs/notes/alias)" = refs/notes/target &&
	git notes --ref=target show $(git rev-list -1 HEAD) >note &&
	grep "a note" note
'

test_expect_success 'a notes commit the object database did not keep: said, and the ref not moved' '
	git rev-list -1 HEAD | sed "s/\$/ kept or not/" >kept &&
	test_tick &&
	test-notes write refs/notes/keep <kept &&
	id=$(git rev-parse refs/notes/keep) &&
	git update-ref -d refs/notes/keep &&
	obj=.git/objects/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-) &&
	test -f $obj &&
	rm -f $obj &&
	echo "not a zlib stream" >$obj &&
	test_must_fail test-notes write refs/notes/keep <kept 2>err &&
	rm -f $obj &&
	grep "refs/notes/keep: cannot write notes: object $id cannot be read back after it was written" err &&
	grep "is the disk full? Nothing written" err &&
	test_must_fail git rev-parse --verify -q refs/notes/keep
'

test_done
