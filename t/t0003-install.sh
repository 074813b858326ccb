#!/bin/sh
test_description='make install: commands on PATH, man pages for git help and --help'
. ./test-lib.sh

command -v asciidoctor >/dev/null && test_set_prereq ASCIIDOCTOR
command -v man >/dev/null && test_set_prereq MAN

inst="$SHARNESS_TRASH_DIRECTORY/inst"
# The installed commands only, not the build directory that test-lib.sh puts first.
inst_path="$inst/bin:/usr/local/bin:/usr/bin:/bin"

test_expect_success ASCIIDOCTOR 'make install into a prefix, from the build directory of the tests' '
	# Same build directory: nothing is built elsewhere; the parent make is not ours.
	(unset MAKEFLAGS MFLAGS MAKELEVEL &&
	 cd "$UT_SRC_DIR" &&
	 make install prefix="$inst" O="$UT_BUILD_DIR" \
		$(test "$(basename "$UT_BUILD_DIR")" = build-sanitize && echo SANITIZE=1)) >make.out 2>&1 &&
	for cmd in undertaker vampyr backport; do
		test -x "$inst/bin/git-$cmd" &&
		test -f "$inst/share/man/man1/git-$cmd.1" || return 1
	done &&
	# git vampyr finds the keeper of compiler probes beside it.
	test -x "$inst/libexec/undertaker/vampyr-cc" &&
	test_set_prereq INSTALLED
'

for cmd in undertaker vampyr backport; do
	test_expect_success INSTALLED "git $cmd --version runs from PATH" "
		test \"\$(PATH='$inst_path' command -v git-$cmd)\" = '$inst/bin/git-$cmd' &&
		PATH='$inst_path' git $cmd --version >out &&
		grep '^git $cmd version' out
	"

	test_expect_success INSTALLED,MAN "git help $cmd finds the installed page" "
		MANPATH='$inst/share/man' MANPAGER=cat PAGER=cat git help $cmd >out 2>err &&
		grep '^NAME' out && grep 'git-$cmd - ' out &&
		grep '^EXIT STATUS' out && grep -- '--notes-ref=<ref>' out
	"

	test_expect_success INSTALLED,MAN "git $cmd --help opens the same page" "
		PATH='$inst_path' MANPATH='$inst/share/man' MANPAGER=cat PAGER=cat \
			git $cmd --help >out 2>err &&
		grep 'git-$cmd - ' out && grep '^SYNOPSIS' out
	"
done

test_done
