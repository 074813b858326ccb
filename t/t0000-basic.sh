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

test_done
