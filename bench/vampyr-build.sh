#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# git vampyr --build on real code: commits on Linux v6.1 that add, inside an
# `#ifdef CONFIG_X` block that x86 defconfig does not compile, an unused
# variable and a call with an argument of the wrong type. For each commit:
#   1. `git vampyr --blocks=hunks --build='make -s -j2'`: both diagnostics must
#      be reported, with the configuration that shows them;
#   2. the defconfig baseline: the same build machinery with the kernel's own
#      `make defconfig` as the kconfig command: no diagnostic may appear.
# Each build goes through the kernel's own Makefiles, `make <dir>/<file>.o` at
# the commit and at v6.1 in one tree (the changed file swapped). Heavy: run it
# alone, under nice.
#
#   bench/vampyr-build.sh [1|2 ...]      (default: both commits)
#
# The commits are made in the bench repository under refs/bench/vampyr-build-N
# (plumbing only: no checkout). Results on stdout and in
# $BENCH_WORK/vampyr-build/results.txt, each run's JSON beside it.
set -euo pipefail

# What a Linux 6.1 x86 build needs beyond `make deps`: objtool links libelf.
for h in /usr/include/libelf.h /usr/include/gelf.h; do
	test -e "$h" || { echo "vampyr-build: $h missing: apt-get install libelf-dev flex bison bc libssl-dev" >&2; exit 1; }
done
for c in flex bison bc; do
	command -v "$c" >/dev/null || { echo "vampyr-build: $c missing: apt-get install flex bison bc" >&2; exit 1; }
done

. "$(dirname "$0")/lib.sh"
repo=${LINUX_REPO:-$("$bench_dir/linux-repo.sh")}
export GIT_DIR=$repo
unset GIT_WORK_TREE
out=$work/vampyr-build
mkdir -p "$out"
bench_log=$out/results.txt

# The edits, as `path|line after which|text`: each inside a CONFIG_X block off
# in x86_64_defconfig (DEBUG_OBJECTS_WORK, SLUB_STATS), each in a function body.
edit_1=(kernel/workqueue.c 'struct work_struct *work = addr;' 'bool work_is_static_object'
	'	int vampyr_unused;' '	kfree(sizeof(*work));')
edit_2=(mm/slub.c 'int len = 0;' 'static int show_stat('
	'	int vampyr_unused;' '	kfree(len);')

# make_commit N: refs/bench/vampyr-build-N on v6.1 with edit_N applied.
make_commit () {
	local n=$1 ref=refs/bench/vampyr-build-$1 path anchor func decl call blob tree commit idx
	local -n e=edit_$n
	path=${e[0]} anchor=${e[1]} func=${e[2]} decl=${e[3]} call=${e[4]}
	if git rev-parse -q --verify "$ref" >/dev/null; then
		echo "$ref"
		return
	fi
	# After the anchor line of the named function: the declaration; after the
	# function's next statement line that ends with ';', or before its
	# function-level return if that comes first: the call (always reached).
	blob=$(git show "v6.1:$path" | awk -v f="$func" -v a="$anchor" -v d="$decl" -v c="$call" '
		index($0, f) { infn = 1 }
		infn == 2 && /^\treturn/ { print c; infn = 0 }
		{ print }
		infn == 1 && index($0, a) { print d; infn = 2; next }
		infn == 2 && /;$/ && !/^\t(int|unsigned|struct) / { print c; infn = 0 }
	' | git hash-object -w --stdin)
	idx=$(mktemp)
	GIT_INDEX_FILE=$idx git read-tree v6.1
	GIT_INDEX_FILE=$idx git update-index --cacheinfo "100644,$blob,$path"
	tree=$(GIT_INDEX_FILE=$idx git write-tree)
	rm -f "$idx"
	commit=$(git commit-tree "$tree" -p v6.1 -m "bench: an unused variable and a wrong argument type in $path")
	git update-ref "$ref" "$commit"
	echo "$ref"
}

say "== bench/vampyr-build.sh $(date -u '+%F %T') UTC, $(nproc) cores, $(git vampyr --version), $(gcc --version | head -n 1)"
commits=("$@")
test ${#commits[@]} -gt 0 || commits=(1 2)
for n in "${commits[@]}"; do
	ref=$(make_commit "$n")
	local_path=$(eval "echo \${edit_$n[0]}")
	say "-- commit $n: $(git log -1 --format='%h %s' "$ref")"
	git diff "$ref^" "$ref" | sed -n '/^@@/,$p' | tee -a "$bench_log" >&3
	# 1. vampyr's own configurations.
	timed "git vampyr --build='make -s -j2' --blocks=hunks" nice \
		git vampyr --commit "$ref" --arch=x86 --blocks=hunks --no-notes --format=json \
		--build='make -s -j2' -o "$out/vampyr-$n" >"$out/vampyr-$n.json" 2>"$out/vampyr-$n.err" || true
	python3 - "$out/vampyr-$n.json" <<-\PY | tee -a "$bench_log" >&3
	import json, sys
	r = json.load(open(sys.argv[1]))
	w = r.get("warnings", [])
	print("vampyr: %d configuration(s), %d of %d blocks after expansion; the commit adds %d diagnostic%s"
	      % (len(r["configs"]), r.get("blocks_covered_expanded", 0), r["blocks_total"], len(w),
	         "" if len(w) == 1 else "s"))
	for x in w:
	    print("  %s\n    in %s" % (x["text"], " ".join(x["configs"])))
	unused = any("vampyr_unused" in x["text"] for x in w)
	wrong = any("kfree" in x["text"] or "makes pointer from integer" in x["text"] for x in w)
	print("both found" if unused and wrong else "NOT both found (unused %s, wrong type %s)" % (unused, wrong))
	PY
	# 2. defconfig: the same machinery, the kernel's defconfig as the "expansion".
	timed "defconfig build of ${local_path%.c}.o at the commit and v6.1" nice \
		git vampyr --commit "$ref" --arch=x86 --blocks=hunks --no-notes --format=json \
		--kconfig='make -s defconfig KCONFIG_CONFIG="$KCONFIG_CONFIG"' \
		--build='make -s -j2' -o "$out/defconfig-$n" >"$out/defconfig-$n.json" \
		2>"$out/defconfig-$n.err" || true
	python3 - "$out/defconfig-$n.json" <<-\PY | tee -a "$bench_log" >&3
	import json, sys
	r = json.load(open(sys.argv[1]))
	w = r.get("warnings", [])
	print("defconfig: the commit adds %d diagnostic%s%s" % (len(w), "" if len(w) == 1 else "s",
	      "".join("\n  " + x["text"] for x in w)))
	PY
done
