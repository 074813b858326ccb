#!/bin/sh
test_description='git backport: empty and broken rules directories, what spatch says, bounded and printable'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-backport.sh"
need_spatch

test_expect_success 'setup: a driver and a rule' '
	mkdir -p rules drivers &&
	write_new_api_rule rules/0001-new-api.cocci 5.10 &&
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

# spatch 1.1.1 runs diff, cp and mkdir through /bin/sh with file names
# unquoted: given `a;touch X;.c` it runs `touch X`.
test_expect_success 'names spatch would hand to the shell: refused, named, quoted; nothing runs' '
	marker=/tmp/t8010-ran-$$ &&
	rm -f "$marker" &&
	git checkout -q -b hostile-names &&
	mkdir -p "names/a;touch /tmp" &&
	for f in "names/a;touch $marker;.c" "names/sp ace.c" "names/new
line.c" "names/q\"uote.c" "names/caf$(printf "\303\251").c" names/plain.c
	do
		printf "int a(void)\n{\n\treturn foo_new_api(1);\n}\n" >"$f" || return 1
	done &&
	git add names && test_tick && git commit -q -m "hostile names" &&
	test_expect_code 1 git backport --rules=rules HEAD^! >out 2>err &&
	! test -e "$marker" &&
	grep "^diff --git a/names/plain.c" out &&
	grep "^diff --git \"a/names/caf\\\\303\\\\251.c\"" out &&
	test $(grep -c "^diff --git" out) = 2 &&
	grep "error: names/sp ace.c: not given to spatch: spatch passes file names to the shell unquoted" err &&
	grep "error: \"names/new\\\\nline.c\": not given to spatch" err &&
	grep "error: \"names/q\\\\\"uote.c\": not given to spatch" err &&
	grep "error: names/a;touch /tmp/t8010-ran-[0-9]*;.c: not given to spatch" err &&
	test_expect_code 1 git backport --rules=rules --format=json HEAD^! >json 2>/dev/null &&
	grep "{\"file\":\"names/sp ace.c\",\"rule\":null,\"message\":\"spatch passes" json &&
	git notes --ref=backport show HEAD >note &&
	grep "^failed \"names/new\\\\nline.c\": not given to spatch" note &&
	git backport -q --rules=rules --ignore-failures HEAD^! >/dev/null 2>err &&
	grep "error: 4 files were not given to spatch; see --verbose" err &&
	! test -e "$marker"
'

test_expect_success 'a header with such a name is not given to spatch to read, with a warning' '
	git checkout -q -b hostile-header hostile-names^ &&
	mkdir -p inc &&
	printf "#define X 1\n" >"inc/bad name.h" &&
	git add inc && test_tick && git commit -q -m "a header" &&
	printf "#include \"bad name.h\"\nint b(void)\n{\n\treturn foo_new_api(2);\n}\n" >inc/b.c &&
	git add inc && test_tick && git commit -q -m "its user" &&
	git backport --rules=rules HEAD^! >out 2>err &&
	grep "^+	return foo_old_api(2, 0);" out &&
	grep "warning: inc/bad name.h: not given to spatch to read beside the files that include it" err
'

test_expect_success 'a file whose blob is gone from the object store: named, the others previewed' '
	git checkout -q -b lost-blob hostile-names^ &&
	mkdir -p lost &&
	printf "int lost_%s(void)\n{\n\treturn foo_new_api(7);\n}\n" gone >lost/gone.c &&
	printf "int lost_%s(void)\n{\n\treturn foo_new_api(8);\n}\n" kept >lost/kept.c &&
	git add lost && test_tick && git commit -q -m "two files" &&
	blob=$(git rev-parse HEAD:lost/gone.c) &&
	obj=.git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	test -f "$obj" &&
	mv "$obj" gone.obj &&
	test_expect_code 1 git backport --rules=rules --no-notes HEAD^! >out 2>err &&
	mv gone.obj "$obj" &&
	grep "^+	return foo_old_api(8, 0);" out &&
	grep "error: lost/gone.c: not given to spatch: its blob cannot be read from the object store" err
'

test_expect_success 'a macro file that is a device, a FIFO, a directory or too large: named at once' '
	mkfifo fifo && truncate -s 17M huge.h && mkdir macrodir &&
	for m in /dev/zero fifo macrodir; do
		test_must_fail sh -c "timeout 20 git backport --rules=rules --macro-file=$m HEAD^!" >out 2>err &&
		test "$(cat err)" = "git backport: error: --macro-file: '\''$m'\'' is not a regular file" &&
		test_must_be_empty out || return 1
	done &&
	test_must_fail git backport --rules=rules --macro-file=huge.h HEAD^! 2>err &&
	grep "^git backport: error: --macro-file: .huge.h. is larger than 16 MiB$" err
'

test_done
