# Shared by the git backport tests: source it after test-lib.sh.

# need_spatch: a file of backport tests needs the real spatch (Debian package
# coccinelle); without it the whole file is skipped. REAL_SPATCH is its path,
# for the wrappers some tests put first on PATH.
need_spatch () {
	if ! test_have_prereq SPATCH; then
		skip_all='spatch (Debian package coccinelle) is not installed'
		test_done
	fi
	REAL_SPATCH=$(command -v spatch)
	export REAL_SPATCH
}

# write_new_api_rule <file> [<version>]: the rule most of them run, which
# turns foo_new_api(E) back into foo_old_api(E, 0); with a version, the
# "// Backport: <version>" header first.
write_new_api_rule () {
	mkdir -p "$(dirname "$1")" &&
	{
		if test -n "$2"; then
			echo "// Backport: $2"
		fi &&
		printf '@@\nexpression E;\n@@\n-foo_new_api(E)\n+foo_old_api(E, 0)\n'
	} >"$1"
}
