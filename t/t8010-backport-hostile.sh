#!/bin/sh
test_description='git backport: empty and broken rules directories, what spatch says, bounded and printable'
. ./test-lib.sh

if ! test_have_prereq SPATCH; then
	skip_all='spatch (Debian package coccinelle) is not installed'
	test_done
fi

REAL_SPATCH=$(command -v spatch)
export REAL_SPATCH

test_expect_success 'setup: a driver and a rule' '
	mkdir -p rules drivers &&
	write_file rules/0001-new-api.cocci <<-\EOF &&
	// Backport: 5.10
	@@
	expression E;
	@@
	-foo_new_api(E)
	+foo_old_api(E, 0)
	EOF
	printf "int a(void)\n{\n\treturn foo_new_api(1);\n}\n" >drivers/a.c &&
	git add . && test_tick && git commit -q -m base
'

test_expect_success 'an empty rules directory: a warning and an empty preview' '
	mkdir empty &&
	git backport --rules=empty HEAD >out 2>err &&
	grep "warning: no \*.cocci rules in .empty." err &&
	test_must_be_empty out
'

test_expect_success 'a dangling rule symlink is named, the other rules run' '
	mkdir -p linked &&
	cp rules/0001-new-api.cocci linked/ &&
	ln -s ../nowhere/0002-gone.cocci linked/0002-gone.cocci &&
	git backport --rules=linked HEAD >out 2>err &&
	grep "warning: .*linked/0002-gone.cocci: dangling symbolic link to .\.\./nowhere/0002-gone.cocci.: skipped" err &&
	grep "^+	return foo_old_api(1, 0);" out
'

test_expect_success 'what spatch says is bounded in length and its bytes printable' '
	mkdir -p wrap &&
	write_file wrap/spatch <<-\EOF &&
	#!/bin/sh
	if test "$1" = --parse-cocci; then
		printf "bad rule: caf\303\251 \302 raw\033[31m red\n" >&2
		perl -e "print \"x\" x 20000, qq(\n)" >&2
		exit 1
	fi
	exec "$REAL_SPATCH" "$@"
	EOF
	chmod +x wrap/spatch &&
	mkdir -p rules2 &&
	{ cat rules/0001-new-api.cocci && echo "// other"; } >rules2/0001-new-api.cocci &&
	test_might_fail env PATH="$PWD/wrap:$PATH" git backport --rules=rules2 HEAD >out 2>err &&
	grep "0001-new-api.cocci: .*bad rule: café \\\\xc2 raw\\\\x1b\[31m red x*\.\.\.$" err &&
	test $(wc -c <err) -lt 2000 &&
	! grep "$(printf "\302 ")" err
'

test_done
