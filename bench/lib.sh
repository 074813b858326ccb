# SPDX-License-Identifier: GPL-2.0
# Shared by the bench/ scripts: where things are, timing, and finding our commands.
# Sourced, not run.

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_dir=$(cd "$bench_dir/.." && pwd)
work=${BENCH_WORK:-$bench_dir/work}
export BENCH_WORK=$work
# The commands as built by `make` (UT_BUILD_DIR as in the tests), before any installed ones.
build_dir=${UT_BUILD_DIR:-$top_dir/build}
PATH=$build_dir/bin:$PATH
export PATH
# Debian's Python, whatever python3 comes first on PATH: Kconfiglib is installed for it.
sys_python=/usr/bin/python3

# Results go to the script's own stdout (fd 3), even from inside a redirected command.
exec 3>&1
say () { printf '%s\n' "$*" | tee -a "${bench_log:-/dev/null}" >&3; }
note () { printf '%s\n' "$*" >&2; }

# timed <label> <command...>: run it, record wall time (s), CPU times and peak RSS (MB)
# in $timed_wall, $timed_user, $timed_sys, $timed_cpu (user + sys) and $timed_mb, and print them under the label. The command's
# stdout goes where the caller sends it; the exit status is the command's.
timed () {
	local label=$1 tf rc
	shift
	tf=$(mktemp)
	rc=0
	/usr/bin/time -f '%e %M %U %S' -o "$tf" "$@" || rc=$?
	# /usr/bin/time writes "Command exited with non-zero status N" first on failure.
	read -r timed_wall timed_kb timed_user timed_sys < <(tail -n 1 "$tf")
	rm -f "$tf"
	timed_mb=$((timed_kb / 1024))
	timed_cpu=$(echo "$timed_user + $timed_sys" | bc)
	# CPU time beside wall time: the machine is shared, and load inflates the wall time.
	say "$label: ${timed_wall} s wall (${timed_user} s user, ${timed_sys} s sys), ${timed_mb} MB peak RSS$( ((rc)) && echo " (exit $rc)")"
	return $rc
}

# A tiny repository to probe what the undertaker can do, without running it on Linux.
probe_repo () {
	local r=$work/probe
	if ! test -f "$r/.git/bench-complete"; then
		rm -rf "$r" && mkdir -p "$r/arch/x86" && (
			unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
			cd "$r" && git init -q &&
			printf 'mainmenu "probe"\nsource "arch/$(SRCARCH)/Kconfig"\nconfig FOO\n\tbool "foo"\n' >Kconfig &&
			printf 'config X86\n\tdef_bool y\n' >arch/x86/Kconfig &&
			printf '#ifdef CONFIG_FOO\nint foo;\n#endif\n' >foo.c &&
			git add -A && git -c user.name=bench -c user.email=bench@localhost commit -q -m probe &&
			touch .git/bench-complete
		)
	fi
	echo "$r"
}

# has_undertaker_feature <args...>: whether `git undertaker <args>` works on the probe
# repository: exit 0 or 1 (findings) and, for what prints a result, the expected kind
# of output (a DIMACS header for --dump-model=dimacs, a JSON object with "defects" for
# --format=json). A script skips what the undertaker cannot do yet and runs the rest.
has_undertaker_feature () {
	local rc=0 r out=$work/.probe.out
	r=$(probe_repo)
	env -u GIT_DIR -u GIT_WORK_TREE git -C "$r" undertaker "$@" >"$out" 2>"$work/.probe.err" || rc=$?
	test $rc -le 1 || return 1
	case " $* " in
	*" --dump-model=dimacs "*) grep -q '^p cnf ' "$out" || return 1 ;;
	*" --format=json "*) grep -q '"defects"' "$out" || return 1 ;;
	esac
	return 0
}

# uboot_repo <dir> <script>: a bare U-Boot repository at <dir> that borrows the
# objects of the fetched mirror ($UBOOT_GIT) through objects/info/alternates, so
# that nothing is written into the mirror; master is $UBOOT_TIP (uboot_tip).
uboot_repo () {
	local repo=$1 src=${UBOOT_GIT:-/work/.mirror/u-boot+u-boot/repo}
	uboot_tip=${UBOOT_TIP:-6073c36b2c8d39afe3ecc789b281667a3ddebc70}
	if ! test -d "$src/objects"; then
		echo "$2: no U-Boot repository at $src (fetch github:u-boot/u-boot, or set UBOOT_GIT)" >&2
		exit 1
	fi
	if ! test -f "$repo/bench-complete"; then
		rm -rf "$repo"
		mkdir -p "$(dirname "$repo")"
		git init -q --bare "$repo"
		echo "$(cd "$src/objects" && pwd)" >"$repo/objects/info/alternates"
		git --git-dir="$repo" update-ref refs/heads/master "$uboot_tip"
		git --git-dir="$repo" symbolic-ref HEAD refs/heads/master
		touch "$repo/bench-complete"
	fi
}
