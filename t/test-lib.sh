# Test library of the undertaker suite, on top of sharness (Debian package).
# Puts the built executables first on PATH and gives each test script a fresh
# repository in its trash directory.

SHARNESS_TEST_EXTENSION=sh
: "${UT_BUILD_DIR:=$(cd "$(dirname "$0")/.." && pwd)/build}"
UT_SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
if test ! -x "$UT_BUILD_DIR/bin/git-undertaker"; then
	echo "Bail out! executables not built in $UT_BUILD_DIR (run 'make')"
	exit 1
fi
PATH="$UT_BUILD_DIR/bin:$UT_BUILD_DIR/t/helper:$PATH"
export PATH UT_BUILD_DIR UT_SRC_DIR

# A predictable git, whatever the machine's configuration.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CEILING_DIRECTORIES
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL='author@example.com'
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL='committer@example.com'
GIT_AUTHOR_DATE='1112911993 -0700'
GIT_COMMITTER_DATE='1112911993 -0700'
GIT_MERGE_AUTOEDIT=no
GIT_EDITOR=:
export GIT_CONFIG_NOSYSTEM GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
	GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE GIT_MERGE_AUTOEDIT GIT_EDITOR
# ASan: a leak or error fails the command (and so the test).
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

. /usr/share/sharness/sharness.sh || exit 1

git init -q -b main . >/dev/null 2>&1 || git init -q .
git config user.name "$GIT_COMMITTER_NAME"
git config user.email "$GIT_COMMITTER_EMAIL"

# test_tick: advance the commit dates, as git's own test suite does.
test_tick () {
	if test -z "${test_tick+set}"; then
		test_tick=1112911993
	else
		test_tick=$((test_tick + 60))
	fi
	GIT_COMMITTER_DATE="$test_tick -0700"
	GIT_AUTHOR_DATE="$test_tick -0700"
	export GIT_COMMITTER_DATE GIT_AUTHOR_DATE
}

# test_commit <message> [<file> [<contents>]]: commit a file and tag it.
test_commit () {
	file=${2:-"$1.t"}
	mkdir -p "$(dirname "$file")" &&
	printf '%s\n' "${3-$1}" >"$file" &&
	git add "$file" &&
	test_tick &&
	git commit -q -m "$1" &&
	git tag "$(echo "$1" | tr -c 'A-Za-z0-9_.\n-' '-')"
}

# write_file <path>: contents from stdin, directories created.
write_file () {
	mkdir -p "$(dirname "$1")" && cat >"$1"
}

# The kernel's own kconfig front end ("conf"), built once per build directory
# from Debian's linux-source package; sets KCONF or skips with a prerequisite.
ut_find_conf () {
	for c in "$UT_BUILD_DIR/kconfig/conf" ; do
		if test -x "$c"; then
			KCONF=$c
			export KCONF
			return 0
		fi
	done
	return 1
}
if ut_find_conf; then
	test_set_prereq KCONF
fi
command -v unifdef >/dev/null && test_set_prereq UNIFDEF
command -v spatch >/dev/null && test_set_prereq SPATCH

# test_line_count <op> <n> <file>
test_line_count () {
	if ! test "$(wc -l <"$3")" "$1" "$2"; then
		echo >&2 "test_line_count: line count for $3 !$1 $2"
		cat >&2 "$3"
		return 1
	fi
}
