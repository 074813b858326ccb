#!/bin/sh
test_description='the first SIGINT or SIGTERM stops a run within 2 s, wherever it is'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-backport.sh"

# A non-interactive shell starts `cmd &` with SIGINT ignored, and the commands
# keep a signal ignored at start: env resets it, as a terminal would have it.
# run_bg <out> <cmd>...: starts the command, its pid in $bg_pid.
run_bg () {
	out=$1
	shift
	env --default-signal=INT,TERM "$@" >"$out" 2>"$out.err" &
	bg_pid=$!
}

# wait_for <seconds> <shell test>: polls every 0.1 s.
wait_for () {
	n=$(($1 * 10)) &&
	while ! eval "$2"; do
		n=$((n - 1)) &&
		test $n -gt 0 || return 1
		sleep 0.1
	done
}

now_ms () {
	echo $(($(date +%s%N) / 1000000))
}

# stop_bg <signal>: signals $bg_pid, waits; $bg_rc is its exit status and
# $bg_ms the milliseconds from the signal to its exit.
stop_bg () {
	t0=$(now_ms) &&
	kill -$1 $bg_pid &&
	{ wait $bg_pid; bg_rc=$?; } &&
	bg_ms=$(($(now_ms) - t0)) &&
	echo "exit $bg_rc after $bg_ms ms" &&
	cat "$out.err"
}

# The pigeonhole principle, 10 pigeons in 9 holes, as one block's condition:
# unsatisfiable, and a minute or more of picosat's time to prove it.
write_pigeonhole () {
	awk -v n=9 'BEGIN {
		for (i = 0; i <= n; i++)
			for (j = 0; j < n; j++)
				printf "config P%d_%d\n\tbool \"p\"\n", i, j >"Kconfig.php"
		printf "#if 1"
		for (i = 0; i <= n; i++) {
			printf " && \\\n    ("
			for (j = 0; j < n; j++)
				printf "%sdefined(CONFIG_P%d_%d)", j ? " || " : "", i, j
			printf ")"
		}
		for (j = 0; j < n; j++)
			for (a = 0; a <= n; a++)
				for (b = a + 1; b <= n; b++)
					printf " && \\\n    !(defined(CONFIG_P%d_%d) && defined(CONFIG_P%d_%d))", a, j, b, j
		printf "\nint x;\n#endif\n"
	}' >"$1"
}

test_expect_success 'setup: two quick commits, then one with a long solve' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	config BAR
		bool "bar"
		depends on FOO
	source "Kconfig.php"
	EOF
	write_pigeonhole php.c &&
	mv php.c php.c.later &&
	git add Kconfig Kconfig.php && test_tick && git commit -q -m base && git tag base &&
	for f in one two; do
		write_file $f.c <<-\EOF &&
		#ifdef CONFIG_BAR
		#ifndef CONFIG_FOO
		int never;
		#endif
		#endif
		EOF
		git add $f.c && test_tick && git commit -q -m $f || return 1
	done &&
	mv php.c.later php.c &&
	git add php.c && test_tick && git commit -q -m hard && git tag hard
'

test_expect_success 'git undertaker: SIGINT in a solver call exits 130 within 2 s' '
	run_bg out git undertaker -j1 base..hard &&
	wait_for 60 "test \$(grep -c \"dead block\" out) = 2" &&
	sleep 1 &&
	stop_bg INT &&
	test $bg_rc = 130 &&
	test $bg_ms -lt 2000 &&
	grep "interrupted; notes of the 2 finished commits were written" out.err
'

test_expect_success 'the finished commits have whole notes, the cut one none; fsck is clean' '
	git notes --ref=undertaker list >notes &&
	test_line_count = 2 notes &&
	for c in hard~1 hard~2; do
		git notes --ref=undertaker show $c >note &&
		grep "^one.c:2: dead block\|^two.c:2: dead block" note &&
		grep "^Undertaker-Model: [0-9a-f]\{40\}$" note &&
		tail -n 1 note >last &&
		echo "Undertaker: 1 new, 0 fixed" >expect &&
		test_cmp expect last || return 1
	done &&
	test_must_fail git notes --ref=undertaker show hard &&
	git fsck --no-dangling >fsck.out 2>&1 &&
	test_must_be_empty fsck.out
'

test_expect_success 'git undertaker: SIGTERM exits 143; the notes stay as they were' '
	git rev-parse refs/notes/undertaker >before &&
	run_bg out git undertaker -j2 base..hard &&
	sleep 1 &&
	stop_bg TERM &&
	test $bg_rc = 143 &&
	test $bg_ms -lt 2000 &&
	git rev-parse refs/notes/undertaker >after &&
	test_cmp before after
'

test_expect_success 'git undertaker: SIGHUP ends it by SIGHUP itself, not by exit code 129 (a usage error)' '
	cat >waitsig.py <<-\PY &&
	import os, signal, subprocess, sys, time
	p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	time.sleep(1)
	p.send_signal(signal.SIGHUP)
	p.wait()
	print("signal %d" % -p.returncode if p.returncode < 0 else "exit %d" % p.returncode)
	PY
	python3 waitsig.py git-undertaker -j2 --no-notes base..hard >status &&
	echo "signal 1" >expect &&
	test_cmp expect status
'

# A reader that has gone: a write end of a FIFO whose only reader was closed.
test_expect_success 'git undertaker: a closed pipe on stdout ends the run at once, silently, by SIGPIPE' '
	git init -q pipe &&
	(cd pipe &&
	 printf "config FOO\n\tbool \"foo\"\n" >Kconfig &&
	 git add Kconfig && test_tick && git commit -q -m base &&
	 for i in $(seq 1 20); do
		printf "#ifdef CONFIG_TYPO_$i\nint x$i;\n#endif\n" >f$i.c &&
		git add f$i.c && test_tick && git commit -q -m "f$i" || return 1
	 done &&
	 mkfifo gone && exec 8<>gone 9>gone 8<&- &&
	 { git undertaker -j1 HEAD~20..HEAD >&9 2>err; echo $? >rc; } &&
	 exec 9>&- &&
	 echo 141 >expect && test_cmp expect rc &&
	 test_must_be_empty err &&
	 git notes --ref=undertaker list >notes &&
	 test_line_count = 1 notes &&
	 git notes --ref=undertaker show HEAD~19 >note &&
	 grep "^f1.c:1: dead block" note &&
	 git undertaker HEAD~20..HEAD | head -n 2 >first &&
	 grep "^f1.c:1: dead" first)
'

test_expect_success 'git undertaker --all: SIGINT in the census exits 130' '
	run_bg out git undertaker --all -j2 hard &&
	sleep 1 &&
	stop_bg INT &&
	test $bg_rc = 130 &&
	test $bg_ms -lt 2000 &&
	test_must_be_empty out
'

# A spatch that answers the questions about rules but sleeps on any file.
test_expect_success SPATCH 'setup: a sleeping spatch' '
	mkdir -p fake tmp rules &&
	real=$(command -v spatch) &&
	cat >fake/spatch <<-EOF &&
	#!/bin/sh
	case " \$* " in
	*" --version "*|*" --parse-cocci "*) exec "$real" "\$@" ;;
	esac
	echo \$\$ >>"$PWD/spatch.pids"
	exec sleep 60
	EOF
	chmod +x fake/spatch &&
	write_new_api_rule rules/0001-api.cocci &&
	write_file drv.c <<-\EOF &&
	void f(void) { foo_new_api(1); }
	EOF
	git add drv.c && test_tick && git commit -q -m drv && git tag drv
'

test_expect_success SPATCH 'git backport: SIGINT while spatch runs exits 130 within 2 s' '
	rm -f spatch.pids &&
	PATH="$PWD/fake:$PATH" TMPDIR="$PWD/tmp" run_bg out git backport --rules=rules hard..drv &&
	wait_for 30 "test -s spatch.pids" &&
	stop_bg INT &&
	test $bg_rc = 130 &&
	test $bg_ms -lt 2000 &&
	! kill -0 $(cat spatch.pids) 2>/dev/null &&
	test_must_be_empty out &&
	ls tmp >left &&
	test_must_be_empty left &&
	test_must_fail git rev-parse -q --verify refs/notes/backport
'

test_expect_success SPATCH 'git backport: SIGTERM exits 143' '
	rm -f spatch.pids &&
	PATH="$PWD/fake:$PATH" TMPDIR="$PWD/tmp" run_bg out git backport --rules=rules hard..drv &&
	wait_for 30 "test -s spatch.pids" &&
	stop_bg TERM &&
	test $bg_rc = 143 &&
	! kill -0 $(cat spatch.pids) 2>/dev/null &&
	ls tmp >left &&
	test_must_be_empty left
'

test_expect_success SPATCH 'git backport killed by SIGKILL: spatch dies with it, the next run removes its directory' '
	rm -f spatch.pids &&
	PATH="$PWD/fake:$PATH" TMPDIR="$PWD/tmp" run_bg out git backport --rules=rules hard..drv &&
	wait_for 30 "test -s spatch.pids" &&
	backport=$(ps -o ppid= -p $(head -n 1 spatch.pids) | tr -d " ") &&
	kill -KILL $backport &&
	wait $bg_pid;
	wait_for 5 "! kill -0 $(cat spatch.pids) 2>/dev/null" &&
	ls tmp >left &&
	test_line_count = 1 left &&
	grep "^git-backport-$backport-" left &&
	mkdir tmp/git-backport-$$-live &&
	TMPDIR="$PWD/tmp" git backport --rules=rules --no-notes HEAD^! >/dev/null 2>&1 </dev/null;
	ls tmp >left &&
	echo "git-backport-$$-live" >expect &&
	test_cmp expect left &&
	rmdir tmp/git-backport-$$-live
'

test_expect_success 'git vampyr --expand: SIGINT while kconfig runs exits 130, tree removed' '
	rm -f kconfig.pid &&
	TMPDIR="$PWD/tmp" run_bg out git vampyr --commit=hard~1 --expand \
		--kconfig="echo \$\$ >\"$PWD/kconfig.pid\"; exec sleep 60" &&
	wait_for 30 "test -s kconfig.pid" &&
	stop_bg INT &&
	test $bg_rc = 130 &&
	test $bg_ms -lt 2000 &&
	! kill -0 $(cat kconfig.pid) 2>/dev/null &&
	ls tmp >left &&
	test_must_be_empty left &&
	test_must_fail git rev-parse -q --verify refs/notes/vampyr
'

test_done
