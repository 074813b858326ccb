#!/bin/sh
test_description='notes batches: one commit per batch, git fan-out, interop with git notes'
. ./test-lib.sh

test_expect_success 'setup' '
	test_commit A && test_commit B && test_commit C && test_commit D
'

test_expect_success 'our notes read back with git notes show, list and log' '
	test-notes write refs/notes/ut "first batch" >count <<-\EOF &&
	A first note
	B two\nlines
	EOF
	echo 2 >expect && test_cmp expect count &&
	echo "first note" >expect &&
	git notes --ref=ut show A >actual && test_cmp expect actual &&
	printf "two\nlines\n" >expect &&
	git notes --ref=ut show B >actual && test_cmp expect actual &&
	git notes --ref=ut list | cut -d" " -f2 | sort >actual &&
	git rev-parse A B | sort >expect && test_cmp expect actual &&
	git log --notes=ut -1 --format="%N" B >actual &&
	printf "two\nlines\n\n" >expect && test_cmp expect actual &&
	git log --notes=ut -1 B >log && grep "^Notes (ut):" log &&
	git log -1 --format=%s refs/notes/ut >actual &&
	echo "first batch" >expect && test_cmp expect actual
'

test_expect_success 'note blobs end with a newline, like git notes add -m' '
	git notes --ref=git-made add -m "first note" A &&
	test "$(git rev-parse refs/notes/git-made:$(git rev-parse A))" = \
	     "$(git rev-parse refs/notes/ut:$(git rev-parse A))"
'

test_expect_success 'notes written by git read back with ours' '
	git notes --ref=g add -m "from git" C &&
	git notes --ref=g add -m "also" D &&
	test-notes read refs/notes/g C D A >actual &&
	printf "from git\nalso\n(none)\n" >expect &&
	test_cmp expect actual &&
	test-notes read refs/notes/nosuch A >actual &&
	echo "(none)" >expect && test_cmp expect actual
'

test_expect_success 'a second batch replaces a note and keeps the others; one commit each' '
	test-notes write refs/notes/ut "second batch" >count <<-\EOF &&
	A replaced
	C new one
	C newer one
	EOF
	echo 2 >expect && test_cmp expect count &&
	git notes --ref=ut show A >actual && echo replaced >expect && test_cmp expect actual &&
	git notes --ref=ut show C >actual && echo "newer one" >expect && test_cmp expect actual &&
	git notes --ref=ut show B >actual && printf "two\nlines\n" >expect && test_cmp expect actual &&
	test $(git notes --ref=ut list | wc -l) = 3 &&
	test $(git rev-list refs/notes/ut | wc -l) = 2 &&
	git log -1 --format=%s refs/notes/ut^ >actual &&
	echo "first batch" >expect && test_cmp expect actual
'

test_expect_success 'we add to notes that git wrote, in one more commit' '
	echo "B ours" | test-notes write refs/notes/g &&
	test-notes read refs/notes/g B C D >actual &&
	printf "ours\nfrom git\nalso\n" >expect && test_cmp expect actual &&
	test $(git rev-list refs/notes/g | wc -l) = 3 &&
	git notes --ref=g show C >actual && echo "from git" >expect && test_cmp expect actual
'

test_expect_success 'an empty note removes the note' '
	echo "D " | test-notes write refs/notes/g &&
	test_must_fail git notes --ref=g show D 2>/dev/null &&
	test $(git notes --ref=g list | wc -l) = 2
'

test_expect_success 'an aborted batch writes nothing, an empty batch no commit' '
	git count-objects -v | grep -v size >before &&
	old=$(git rev-parse refs/notes/ut) &&
	echo "D never" | test-notes write refs/notes/ut --abort &&
	echo "D never" | test-notes write refs/notes/fresh --abort &&
	test-notes write refs/notes/ut </dev/null &&
	test "$(git rev-parse refs/notes/ut)" = "$old" &&
	test_must_fail git rev-parse -q --verify refs/notes/fresh &&
	git count-objects -v | grep -v size >after &&
	test_cmp before after
'

test_expect_success 'a writer that moved the ref meanwhile keeps its notes; ours go on top' '
	printf "A ours\nB ours too\n" | \
		test-notes write refs/notes/ut --race="git notes --ref=ut add -f -m theirs B && git notes --ref=ut add -f -m theirs C" &&
	git notes --ref=ut show A >actual && echo ours >expect && test_cmp expect actual &&
	git notes --ref=ut show B >actual && echo "ours too" >expect && test_cmp expect actual &&
	git notes --ref=ut show C >actual && echo theirs >expect && test_cmp expect actual &&
	git log -1 --format=%s refs/notes/ut^ >actual &&
	echo "Notes added by '\''git notes add'\''" >expect && test_cmp expect actual &&
	echo "A ours" | test-notes write refs/notes/racy --race="git notes --ref=racy add -m theirs B" &&
	test $(git rev-list refs/notes/racy | wc -l) = 2 &&
	test-notes read refs/notes/racy A B >actual && printf "ours\ntheirs\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a bad commit aborts the batch' '
	old=$(git rev-parse refs/notes/ut) &&
	printf "A would replace\nnosuch x\n" >in &&
	test_expect_code 128 test-notes write refs/notes/ut <in 2>err &&
	grep "bad revision .nosuch." err &&
	test "$(git rev-parse refs/notes/ut)" = "$old"
'

test_expect_success 'setup 1000 commits' '
	for i in $(seq 1000); do
		echo "commit refs/heads/many" &&
		echo "committer C O Mitter <committer@example.com> $((1112911993 + i)) -0700" &&
		echo "data <<END" && echo "commit $i" && echo "END" &&
		echo "M 644 inline file" && echo "data <<END" && echo "$i" && echo "END" && echo
	done >stream &&
	git fast-import --quiet <stream &&
	test $(git rev-list many | wc -l) = 1000
'

test_expect_success '1000 notes in one batch: fanned out, all read by git' '
	git rev-list many | awk "{ print \$1, \"note for\", \$1 }" >in &&
	test-notes write refs/notes/many <in >count &&
	echo 1000 >expect && test_cmp expect count &&
	test $(git rev-list refs/notes/many | wc -l) = 1 &&
	git ls-tree refs/notes/many >top &&
	test $(wc -l <top) -gt 200 &&
	! grep -v "^040000 tree [0-9a-f]*	[0-9a-f][0-9a-f]$" top &&
	git notes --ref=many list | wc -l >n && echo 1000 >expect && test_cmp expect n &&
	git log --notes=many --format="%H %N" many | grep . >actual &&
	sort in >expect && sort actual >actual.sorted && test_cmp expect actual.sorted &&
	test-notes read refs/notes/many many many~500 >actual &&
	grep "^note for $(git rev-parse many)$" actual &&
	grep "^note for $(git rev-parse many~500)$" actual
'

test_expect_success 'fan-out as git writes it, down to 2/2/36 (20000 notes)' '
	perl -MDigest::SHA=sha1_hex -e "print sha1_hex(\$_), qq(\n) for 1..20000" >keys &&
	blob=$(echo note | git hash-object -w --stdin) &&
	awk -v b=$blob "{ printf \"100644 blob %s\t%s\n\", b, \$1 }" keys | git mktree >flat &&
	commit=$(git commit-tree -m flat $(cat flat)) &&
	git update-ref refs/notes/gitfan $commit &&
	git notes --ref=gitfan add -m x A &&
	awk "{ print \$1, \"note\" }" keys >in && echo "A x" >>in &&
	test-notes write refs/notes/ours <in &&
	git ls-tree -r --name-only refs/notes/gitfan >expect &&
	git ls-tree -r --name-only refs/notes/ours >actual &&
	test_cmp expect actual &&
	grep -q "^../../" actual &&
	test "$(git rev-parse refs/notes/gitfan^{tree})" = "$(git rev-parse refs/notes/ours^{tree})" &&
	deep=$(grep "^../../" actual | head -1 | tr -d /) &&
	flat=$(grep -v "^../../" actual | head -1 | tr -d /) &&
	test-notes read refs/notes/ours $deep $flat A >actual &&
	printf "note\nnote\nx\n" >expect && test_cmp expect actual
'

test_expect_success 'replacing a note in a fanned-out tree, as git reads it' '
	printf "%s changed\n" $(sed -n 7p keys) | test-notes write refs/notes/ours &&
	git notes --ref=ours list | wc -l >n && echo 20001 >expect && test_cmp expect n &&
	git cat-file -p "$(git notes --ref=ours list | grep " $(sed -n 7p keys)\$" | cut -d" " -f1)" >actual &&
	echo changed >expect && test_cmp expect actual &&
	# Unchanged fan-out subtrees were reused: the tree is the one a fresh batch makes.
	k7=$(sed -n 7p keys) &&
	sed "s/^$k7 note\$/$k7 changed/" in | test-notes write refs/notes/fresh &&
	test "$(git rev-parse refs/notes/fresh^{tree})" = "$(git rev-parse refs/notes/ours^{tree})"
'

test_expect_success 'entries that are not notes are kept' '
	blob=$(echo readme | git hash-object -w --stdin) &&
	note=$(echo "old" | git hash-object -w --stdin) &&
	printf "100644 blob %s\tREADME\n100644 blob %s\t%s\n" $blob $note $(git rev-parse A) |
		git mktree >tree &&
	git update-ref refs/notes/mixed $(git commit-tree -m mixed $(cat tree)) &&
	echo "B new" | test-notes write refs/notes/mixed &&
	git cat-file -p refs/notes/mixed:README >actual && echo readme >expect && test_cmp expect actual &&
	test-notes read refs/notes/mixed A B >actual && printf "old\nnew\n" >expect && test_cmp expect actual
'

test_expect_success 'notes in a bare repository' '
	git clone -q --bare . bare.git &&
	(cd bare.git && echo "B bare note" | test-notes write refs/notes/bare &&
	 git notes --ref=bare show B >../actual) &&
	echo "bare note" >expect && test_cmp expect actual
'

test_done
