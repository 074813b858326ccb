#!/bin/sh
test_description='the three commands run, answer -h and --version, and follow git option conventions'
. ./test-lib.sh

for cmd in undertaker vampyr backport; do
	test_expect_success "git $cmd --version" "
		git-$cmd --version >out &&
		grep '^git $cmd version [0-9]' out
	"
	test_expect_success "git $cmd -h prints usage and exits 129" "
		test_expect_code 129 git-$cmd -h >out &&
		grep '^usage: git $cmd' out
	"
	test_expect_success "git $cmd with an unknown option exits 129" "
		test_expect_code 129 git-$cmd --no-such-option 2>err &&
		grep \"git $cmd: error: unknown option 'no-such-option'\" err &&
		grep '^usage: git $cmd' err
	"
	test_expect_success "git $cmd runs as a git subcommand" "
		git $cmd --version >out &&
		grep '^git $cmd version' out
	"
	test_expect_success "git $cmd outside a repository is fatal (128)" "
		mkdir -p outside &&
		(cd outside && GIT_CEILING_DIRECTORIES=\"\$SHARNESS_TRASH_DIRECTORY\" test_expect_code 128 git-$cmd 2>../err) &&
		grep '^git $cmd: not a git repository' err
	"
	test_expect_success "git $cmd rejects a bad --format" "
		test_expect_code 129 git-$cmd --format=xml 2>err &&
		grep 'format' err
	"
done

test "$(id -u)" = 0 && id nobody >/dev/null 2>&1 && test_set_prereq ROOT

test_expect_success ROOT 'a repository another user owns: git'\''s message, and safe.directory=* trusts it' '
	git init -q theirs &&
	(cd theirs && printf "config A\n\tbool \"a\"\n" >Kconfig && git add Kconfig &&
	 git -c user.name=t -c user.email=t@t commit -q -m one) &&
	chown -R nobody theirs &&
	mkdir -p home1 home2 &&
	(cd theirs && HOME="$PWD/../home1" GIT_CONFIG_NOSYSTEM=1 \
		test_expect_code 128 git-undertaker --no-notes HEAD^! 2>../err) &&
	grep "detected dubious ownership in repository at .*theirs" err &&
	grep "safe.directory" err &&
	! grep "not a git repository" err &&
	HOME="$PWD/home2" git config --global --add safe.directory "*" &&
	(cd theirs && HOME="$PWD/../home2" GIT_CONFIG_NOSYSTEM=1 git-undertaker --no-notes HEAD^! 2>../err) &&
	test_must_be_empty err
'

test_done
