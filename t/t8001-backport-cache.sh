#!/bin/sh
test_description='git backport: cache, token filter, timeouts, notes, --commit-to, bare repositories'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-backport.sh"
need_spatch

# A spatch first on PATH that logs each run (its arguments) and can be slow.
test_expect_success 'setup: a logging spatch, drivers and a rule' '
	mkdir -p wrap &&
	cat >wrap/spatch <<-\EOF &&
	#!/bin/sh
	# Logs the files a run is given: named, the C files of --dir, or the
	# files of --file-groups; and each process as a "process" line.
	dir= groups= slow=
	echo "process $*" >>"$SPATCH_LOG.processes"
	if test -n "$SPATCH_KILL_QUERY" && test "$1" = --parse-cocci; then
		kill -9 $$
	fi
	for a in "$@"; do
		if test -e "$a" && grep -rq SLOW_MARKER "$a"; then
			slow=yes
		fi
		if test "$groups" = next; then
			groups=$a
			for f in $(sed -n "s|^\./||p" "$a"); do
				echo "$f" >>"$SPATCH_LOG"
				grep -q SLOW_MARKER "$f" && slow=yes
			done
		elif test "$dir" = next; then
			dir=$a
		elif test "$a" = --file-groups; then
			groups=next
		elif test "$a" = --dir; then
			dir=next
		elif test -f "$a" && test "${a%.cocci}" = "$a"; then
			echo "$a" >>"$SPATCH_LOG"
		elif test "$a" = --parse-cocci; then
			echo "--parse-cocci" >>"$SPATCH_LOG"
		fi
	done
	if test -n "$dir"; then
		(cd "$dir" && find . -name "*.c" | sed "s|^\./||") >>"$SPATCH_LOG"
	fi
	if test -n "$slow" && test -z "$SPATCH_NOT_SLOW"; then
		echo $$ >"$SPATCH_LOG.slow"
		sleep 30
	fi
	exec "$REAL_SPATCH" "$@"
	EOF
	chmod +x wrap/spatch &&
	SPATCH_LOG=$PWD/spatch.log &&
	export SPATCH_LOG &&
	PATH=$PWD/wrap:$PATH &&
	export PATH &&
	mkdir -p rules drivers &&
	cat >rules/0001-threaded-irq.cocci <<-\EOF &&
	// Backport: 2.6.31
	@@
	expression irq, handler, thread_fn, flags, name, dev;
	@@
	-request_threaded_irq(irq, handler, thread_fn, flags, name, dev)
	+compat_request_threaded_irq(irq, handler, thread_fn, flags, name, dev)
	EOF
	printf "int a(void)\n{\n\treturn request_threaded_irq(1, 0, 0, 0, \"a\", 0);\n}\n" >drivers/a.c &&
	printf "int b(void)\n{\n\treturn 0;\n}\n" >drivers/b.c &&
	printf "/* request_threaded_irq is only named here */\nint c;\n" >drivers/c.h &&
	git add drivers &&
	test_tick &&
	git commit -q -m base &&
	git tag base &&
	printf "int a2(void)\n{\n\treturn request_threaded_irq(2, 0, 0, 0, \"a\", 0);\n}\n" >>drivers/a.c &&
	echo "/* b */" >>drivers/b.c &&
	git commit -q -a -m "a and b"
'

test_expect_success 'the token filter never gives spatch a file without the rule'\''s tokens' '
	rm -f spatch.log &&
	git backport --rules=rules base >out &&
	grep "^+	return compat_request_threaded_irq(1, 0, 0, 0, \"a\", 0);" out &&
	grep -e "--parse-cocci" spatch.log &&
	grep "drivers/a.c" spatch.log &&
	grep "drivers/c.h" spatch.log &&
	! grep "drivers/b.c" spatch.log &&
	git backport --stat --rules=rules base >stat &&
	grep "token filter skipped 1 of 3 (33.3%)" stat
'

test_expect_success 'a second run starts no spatch at all: every answer is cached' '
	rm -f spatch.log &&
	git backport --rules=rules base >again &&
	test_cmp out again &&
	! test -e spatch.log &&
	git backport --stat --rules=rules base >stat &&
	grep "spatch ran on 0 files in 0 processes, 2 results from the cache" stat
'

test_expect_success 'a later commit runs spatch only on the files that differ' '
	rm -f spatch.log &&
	git backport --rules=rules base..HEAD >out &&
	grep "compat_request_threaded_irq(2" out &&
	grep "drivers/a.c" spatch.log &&
	test $(wc -l <spatch.log) = 1
'

test_expect_success 'a cached output that git prune removed is made again, not lost' '
	git backport --rules=rules base..HEAD >before &&
	git prune --expire=now &&
	rm -f spatch.log &&
	git backport --rules=rules base..HEAD >after &&
	test_cmp before after &&
	grep "drivers/a.c" spatch.log
'

test_expect_success 'the cache lives under $GIT_DIR/backport' '
	test -d .git/backport/cache &&
	test -f .git/backport/spatch-version
'

test_expect_success 'a damaged cache entry is computed again, with a warning' '
	rm -rf .git/backport/cache &&
	git backport --rules=rules -n 2 HEAD >before 2>err &&
	test_must_be_empty err &&
	find .git/backport/cache -type f >entries &&
	test $(wc -l <entries) -ge 3 &&
	# Cut short (a full disk), emptied, one byte changed.
	first=$(sed -n 1p entries) && second=$(sed -n 2p entries) && third=$(sed -n 3p entries) &&
	head -c $(($(wc -c <"$first") - 2)) "$first" >cut && mv cut "$first" &&
	: >"$second" &&
	sed "\$s/./X/" "$third" >changed && mv changed "$third" &&
	rm -f spatch.log &&
	git backport --rules=rules -n 2 HEAD >after 2>err &&
	test_cmp before after &&
	test $(grep -c "warning: cache entry .* is damaged" err) = 3 &&
	grep "$first is damaged (checksum mismatch)" err &&
	grep "$second is damaged (no header)" err &&
	grep "$third is damaged (checksum mismatch)" err &&
	test -e spatch.log &&
	rm -f spatch.log &&
	git backport --rules=rules -n 2 HEAD >again 2>err &&
	test_must_be_empty err &&
	test_cmp before again &&
	! test -e spatch.log
'

test_expect_success 'a --parse-cocci killed or timed out is not cached as the rule'\''s error' '
	mkdir -p rules-killed rules-slow &&
	{ cat rules/0001-threaded-irq.cocci && echo "// killed"; } >rules-killed/0001-threaded-irq.cocci &&
	test_might_fail env SPATCH_KILL_QUERY=1 git backport --rules=rules-killed base >out 2>err &&
	grep "0001-threaded-irq.cocci: spatch killed by signal 9" err &&
	! grep compat_request_threaded_irq out &&
	git backport --rules=rules-killed base >out 2>err &&
	grep "^+	return compat_request_threaded_irq(1, 0, 0, 0, \"a\", 0);" out &&
	{ cat rules/0001-threaded-irq.cocci && echo "// SLOW_MARKER"; } >rules-slow/0001-threaded-irq.cocci &&
	test_might_fail git backport --timeout=1 --rules=rules-slow base >out 2>err &&
	grep "0001-threaded-irq.cocci: timeout" err &&
	! grep compat_request_threaded_irq out &&
	SPATCH_NOT_SLOW=1 git backport --rules=rules-slow base >out 2>err &&
	grep "^+	return compat_request_threaded_irq(1, 0, 0, 0, \"a\", 0);" out
'

test_expect_success 'notes on each commit of the range, in refs/notes/backport' '
	git backport --rules=rules --target=2.6.20 base~0..HEAD >/dev/null &&
	git notes --ref=backport show HEAD >note &&
	grep "^backport: target 2.6.20, rules rules, spatch " note &&
	grep "^changed drivers/a.c: 0001-threaded-irq.cocci$" note &&
	! grep -F "drivers/b.c" note &&
	git backport --rules=rules base >/dev/null &&
	git notes --ref=backport show base >note &&
	grep "^changed drivers/a.c: 0001-threaded-irq.cocci$" note &&
	! grep "drivers/c.h" note &&
	git backport --no-notes --rules=rules --target=9.0 HEAD >/dev/null &&
	git notes --ref=backport show HEAD >note &&
	grep "target 2.6.20" note
'

test_expect_success 'a note says what failed' '
	printf "int slow(void)\n{\n\treturn request_threaded_irq(1 2;\n}\n" >drivers/d.c &&
	git add drivers/d.c &&
	git commit -q -m "d: broken" &&
	git backport --rules=rules HEAD >/dev/null 2>err &&
	grep "^git backport: warning: drivers/d.c: cannot parse line [0-9]*, .*(0001-threaded-irq.cocci)$" err &&
	git notes --ref=backport show HEAD >note &&
	grep "^failed drivers/d.c: 0001-threaded-irq.cocci: parse error" note &&
	test_expect_code 1 git backport --strict-parsing --rules=rules HEAD >/dev/null 2>err &&
	grep "^git backport: error: drivers/d.c: cannot parse line [0-9]*, .*(0001-threaded-irq.cocci)$" err &&
	git backport --strict-parsing --ignore-failures --rules=rules HEAD >/dev/null 2>err &&
	grep "^git backport: error: drivers/d.c: cannot parse line [0-9]*, .*(0001-threaded-irq.cocci)$" err &&
	git reset -q --hard HEAD~1
'

test_expect_success '--timeout kills a slow spatch and reports it; the other files go on' '
	printf "/* SLOW_MARKER */\nint s(void)\n{\n\treturn request_threaded_irq(3, 0, 0, 0, \"s\", 0);\n}\n" >drivers/slow.c &&
	git add drivers/slow.c &&
	git commit -q -m "slow" &&
	start=$(date +%s) &&
	test_expect_code 1 git backport --timeout=1 --rules=rules base..HEAD >out 2>err &&
	end=$(date +%s) &&
	test $((end - start)) -lt 25 &&
	grep "drivers/slow.c: 0001-threaded-irq.cocci: timeout" err &&
	grep "compat_request_threaded_irq(2" out &&
	! grep slow.c out &&
	git reset -q --hard HEAD~1
'

test_expect_success 'killing git backport kills the spatch it runs' '
	printf "/* SLOW_MARKER */\nint s(void)\n{\n\treturn request_threaded_irq(3, 0, 0, 0, \"s\", 0);\n}\n" >drivers/slow.c &&
	git add drivers/slow.c &&
	git commit -q -m "slow" &&
	rm -f spatch.log.slow &&
	{ git backport --rules=rules HEAD >/dev/null 2>&1 & } &&
	bp=$! &&
	n=0 &&
	while ! test -s spatch.log.slow && test $n -lt 100; do sleep 0.1; n=$((n + 1)); done &&
	slow=$(cat spatch.log.slow) &&
	kill -0 $slow &&
	kill -TERM $bp &&
	n=0 &&
	while kill -0 $slow 2>/dev/null && test $n -lt 50; do sleep 0.1; n=$((n + 1)); done &&
	! kill -0 $slow 2>/dev/null &&
	git reset -q --hard HEAD~1
'

test_expect_success '--commit-to builds a commit in the object store only' '
	git backport --rules=rules base..HEAD >preview &&
	git rev-parse HEAD >head.before &&
	git ls-files -s >index.before &&
	git backport --rules=rules --commit-to=backported base..HEAD >out &&
	test_cmp preview out &&
	git rev-parse HEAD >head.after &&
	git ls-files -s >index.after &&
	test_cmp head.before head.after &&
	test_cmp index.before index.after &&
	git diff --quiet &&
	test "$(git rev-parse backported^)" = "$(git rev-parse HEAD)" &&
	git show backported:drivers/a.c >a.c &&
	grep "compat_request_threaded_irq(1" a.c &&
	grep "compat_request_threaded_irq(2" a.c &&
	git diff --stat HEAD backported >stat &&
	grep "1 file changed" stat &&
	test_expect_code 128 git backport --rules=rules --commit-to=main base..HEAD >/dev/null 2>err &&
	grep "checked-out branch" err
'

test_expect_success 'a bare repository: rules from a tree, cache in the bare directory' '
	GIT_INDEX_FILE=$PWD/.git/rules-index git add rules &&
	tree=$(GIT_INDEX_FILE=$PWD/.git/rules-index git write-tree) &&
	git branch with-rules $(echo rules | git commit-tree $tree) &&
	git clone -q --bare . bare.git &&
	git backport --rules=rules base..HEAD >expect &&
	(
		cd bare.git &&
		git backport --rules=with-rules:rules base..main >../actual &&
		test -d backport/cache &&
		git notes --ref=backport show main >../note
	) &&
	test_cmp expect actual &&
	grep "changed drivers/a.c" note
'

test_expect_success 'C files and headers of a directory: one spatch process per rule and batch (C files, headers)' '
	mkdir -p many &&
	for f in m1 m2 m3 m4; do
		printf "#include \"mh.h\"\nint %s(void)\n{\n\treturn request_threaded_irq(1, 0, 0, 0, \"%s\", 0);\n}\n" $f $f >many/$f.c || return 1
	done &&
	printf "static inline int h1(void)\n{\n\treturn request_threaded_irq(3, 0, 0, 0, \"h\", 0);\n}\n" >many/h1.h &&
	printf "static inline int h2(void)\n{\n\treturn request_threaded_irq(4, 0, 0, 0, \"h\", 0);\n}\n" >many/h2.h &&
	printf "/* read by the C files, not changed */\nint mh;\n" >many/mh.h &&
	git add many &&
	test_tick &&
	git commit -q -m many &&
	rm -rf .git/backport spatch.log spatch.log.processes &&
	git backport -j 2 --format=json --rules=rules --at=HEAD -- many >out.json &&
	# two processes run the rule: the four C files, the two headers
	grep -e "--sp-file" spatch.log.processes | grep -v -e "--parse-cocci" >runs &&
	test_line_count = 2 runs &&
	grep -c "^many/" spatch.log >files &&
	echo 6 >expect &&
	test_cmp expect files &&
	grep "\"processes\":2,\"alone\":{\"batch_failed\":0,\"header_changed\":0}" out.json &&
	for f in m1 m2 m3 m4 h1 h2; do
		grep "^+++ b/many/$f\.[ch]" out.json >/dev/null || grep -q "many/$f" out.json || return 1
	done &&
	! grep "many/mh.h" spatch.log
'

# A rule that changes a header through the C file that reads it (the member
# the threaded-interrupt wrapper needs, in the driver's own structure).
test_expect_success 'setup: a rule that changes a header through a C file' '
	mkdir -p rules-hdr &&
	cat >rules-hdr/0001-irq-member.cocci <<-\EOF &&
	@ r @
	type T;
	T *priv;
	@@
	-request_threaded_irq(0, priv)
	+compat_request_threaded_irq(0, priv)

	@ depends on r @
	type r.T;
	@@
	T {
	+	int irq_compat;
	...
	};
	EOF
	mkdir -p hdr1 hdr2 hdr3 &&
	printf "struct x_priv {\n\tint irq;\n};\n" >hdr1/xh.h &&
	printf "#include \"xh.h\"\nint x(struct x_priv *p)\n{\n\treturn request_threaded_irq(0, p);\n}\n" >hdr1/x.c &&
	printf "int y(int *p)\n{\n\treturn request_threaded_irq(0, p);\n}\n" >hdr1/y.c &&
	cp hdr1/xh.h hdr1/x.c hdr2/ &&
	sed "s/int x(/int w(/" hdr1/x.c >hdr2/w.c &&
	cp hdr1/xh.h hdr3/ &&
	printf "/* the larger: given to spatch first */\n" | cat - hdr1/x.c >hdr3/x.c &&
	printf "#include \"xh.h\"\nint v(int *p)\n{\n\treturn request_threaded_irq(0, p);\n}\n" >hdr3/v.c &&
	git add hdr1 hdr2 hdr3 &&
	test_tick &&
	git commit -q -m "headers read by C files"
'

test_expect_success 'a header changed through the one C file of the batch that reads it: nothing runs alone' '
	rm -rf .git/backport spatch.log spatch.log.processes &&
	git backport -j 2 --format=json --rules=rules-hdr --at=HEAD -- hdr1 >out.json &&
	grep -e "--sp-file" spatch.log.processes >runs &&
	test_line_count = 1 runs &&
	grep "\"processes\":1,\"alone\":{\"batch_failed\":0,\"header_changed\":0}" out.json &&
	grep "+++ b/hdr1/xh.h" out.json &&
	grep "+\\\\tint irq_compat;" out.json &&
	grep "+\\\\treturn compat_request_threaded_irq(0, p);" out.json
'

test_expect_success 'a header changed in a batch where two C files read it: those two run again alone' '
	rm -rf .git/backport spatch.log spatch.log.processes &&
	git backport -j 2 --format=json --rules=rules-hdr --at=HEAD -- hdr2 >out.json &&
	grep -e "--sp-file" spatch.log.processes >runs &&
	test_line_count = 3 runs &&
	grep "\"processes\":3,\"alone\":{\"batch_failed\":0,\"header_changed\":2}" out.json &&
	grep "+++ b/hdr2/xh.h" out.json &&
	test $(grep -o "+\\\\tint irq_compat;" out.json | wc -l) = 1
'

test_expect_success 'a header that one reader changes and another leaves (spatch drops it or keeps the first): both run alone' '
	rm -rf .git/backport spatch.log spatch.log.processes &&
	git backport -j 2 --format=json --rules=rules-hdr --at=HEAD -- hdr3 >out.json &&
	grep "\"processes\":3,\"alone\":{\"batch_failed\":0,\"header_changed\":2}" out.json &&
	grep "+++ b/hdr3/xh.h" out.json &&
	grep "+\\\\tint irq_compat;" out.json
'

test_expect_success 'no spatch: exit 128 naming the Debian package' '
	mkdir -p nospatch &&
	ln -s "$(command -v git)" nospatch/git &&
	(
		PATH=$PWD/nospatch &&
		export PATH &&
		test_expect_code 128 "$UT_BUILD_DIR/bin/git-backport" --rules=rules HEAD 2>err
	) &&
	grep "spatch not found" err &&
	grep "coccinelle" err
'

test_done
