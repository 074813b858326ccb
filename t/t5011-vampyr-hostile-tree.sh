#!/bin/sh
test_description='git vampyr writes a hostile tree nowhere but under its own directories'
. ./test-lib.sh

# Trees that git fetch takes but git checkout refuses, made with
# hash-object --literally: an entry "..", a symlink and a directory of the
# same name. mktree_literal reads "mode name oid" lines.
mktree_literal () {
	perl -e '
		binmode STDOUT;
		while (<STDIN>) {
			chomp;
			my ($mode, $name, $oid) = split / /, $_, 3;
			print "$mode $name\0", pack("H*", $oid);
		}' | git hash-object -t tree --literally -w --stdin
}

# The repository sits deep below the trash directory, so that an escape of a
# few ".." lands inside it, where the test can see it; the tests run there.
test_expect_success 'setup: a repository six levels down, a normal commit' '
	mkdir -p deep/a/b/c/d/e/f outside &&
	echo keep >outside/Makefile &&
	cd deep/a/b/c/d/e/f &&
	git init -q repo &&
	cd repo &&
	write_file Kconfig <<-\EOF &&
	mainmenu "hostile"
	config A
		bool "a"
	EOF
	write_file Makefile <<-\EOF &&
	all:
	EOF
	write_file foo.c <<-\EOF &&
	#ifdef CONFIG_A
	int a;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base
'

test_expect_success 'a tree with ".." entries at every depth: refused, nothing written above' '
	blob=$(echo "mainmenu \"escaped\"" | git hash-object -w --stdin) &&
	sub=$(printf "100644 Kconfig.escaped %s\n" $blob | mktree_literal) &&
	for i in 1 2 3 4 5 6 7 8
	do
		sub=$(printf "40000 .. %s\n100644 Kconfig.escaped %s\n" $sub $blob | mktree_literal) ||
		return 1
	done &&
	kc=$(git rev-parse HEAD:Kconfig) && mk=$(git rev-parse HEAD:Makefile) &&
	c=$(git rev-parse HEAD:foo.c) &&
	root=$(printf "40000 .. %s\n100644 Kconfig %s\n100644 Makefile %s\n100644 foo.c %s\n" \
		$sub $kc $mk $c | mktree_literal) &&
	commit=$(echo hostile | git commit-tree $root -p HEAD) &&
	test_might_fail git vampyr --no-notes --expand --kconfig=true --commit $commit \
		-o "$SHARNESS_TRASH_DIRECTORY/out1" >out 2>err &&
	cat err &&
	grep "refusing to write .*\.\." err &&
	(cd "$SHARNESS_TRASH_DIRECTORY" && find . -name Kconfig.escaped) >escaped &&
	test_must_be_empty escaped
'

test_expect_success 'a symlink and a directory of one name: nothing written through the link' '
	link=$(printf "%s" "$SHARNESS_TRASH_DIRECTORY/outside" | git hash-object -w --stdin) &&
	mk=$(echo "all: ; @echo hostile" | git hash-object -w --stdin) &&
	dir=$(printf "100644 Makefile %s\n" $mk | mktree_literal) &&
	kc=$(git rev-parse HEAD:Kconfig) && c=$(git rev-parse HEAD:foo.c) &&
	root=$(printf "100644 Kconfig %s\n100644 foo.c %s\n120000 scripts %s\n40000 scripts %s\n" \
		$kc $c $link $dir | mktree_literal) &&
	commit=$(echo hostile | git commit-tree $root -p HEAD) &&
	test_might_fail git vampyr --no-notes --expand --kconfig=true --commit $commit \
		-o "$SHARNESS_TRASH_DIRECTORY/out2" >out 2>err &&
	cat err &&
	grep "scripts/Makefile" err &&
	echo keep >expect &&
	test_cmp expect "$SHARNESS_TRASH_DIRECTORY/outside/Makefile"
'

test_expect_success 'the same names the other way round: the directory first, then the link' '
	root=$(printf "100644 Kconfig %s\n100644 foo.c %s\n40000 scripts %s\n120000 scripts %s\n" \
		$kc $c $dir $link | mktree_literal) &&
	commit=$(echo hostile | git commit-tree $root -p HEAD) &&
	test_might_fail git vampyr --no-notes --expand --kconfig=true --commit $commit \
		-o "$SHARNESS_TRASH_DIRECTORY/out3" >out 2>err &&
	test_cmp expect "$SHARNESS_TRASH_DIRECTORY/outside/Makefile" &&
	ls "$SHARNESS_TRASH_DIRECTORY/outside" >listing &&
	echo Makefile >expect.listing &&
	test_cmp expect.listing listing
'

test_done
