#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A first look at git undertaker: makes a small repository under bench/work/demo from
# the steps in bench/demo/ (a Kconfig tree with a choice, a select and a tristate; C
# files; four commits, one adding defects and one a Kconfig change that kills a block
# in a file it does not touch), runs `git undertaker` over the history and shows the
# notes it wrote with `git log --notes=undertaker`.
#
#   make deps && make && bench/demo.sh
#
# Exits 0 once the findings are shown (git undertaker itself exits 1 on findings).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if ! command -v git-undertaker >/dev/null; then
	echo "bench/demo.sh: git-undertaker is not built: run 'make' first" >&2
	exit 1
fi

demo=$work/demo
rm -rf "$demo"
mkdir -p "$demo"
cd "$demo"
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
git init -q -b main . 2>/dev/null || git init -q .
git config user.name 'Demo Author'
git config user.email 'demo@example.com'
# Fixed dates: the same commit ids on every run and every machine.
when=1700000000
for step in "$bench_dir"/demo/[0-9]*/; do
	(cd "$step" && tar -cf - --exclude=COMMIT_MSG .) | tar -xf -
	git add -A
	GIT_AUTHOR_DATE="$when +0000" GIT_COMMITTER_DATE="$when +0000" \
		git commit -q -F "$step/COMMIT_MSG"
	when=$((when + 3600))
done

show () {
	printf '\n$ %s\n' "$*"
}

show git log --oneline
git --no-pager log --oneline --reverse | cat

# The first commit is the baseline; the undertaker checks each later one against its parent.
root=$(git rev-list --max-parents=0 HEAD)
show git undertaker "$(git rev-parse --short "$root")..HEAD"
rc=0
git undertaker "$root..HEAD" || rc=$?
case $rc in
0) echo "(exit 0: no commit in the range adds a defect)" ;;
1) echo "(exit 1: a commit in the range adds a defect)" ;;
*)
	echo "bench/demo.sh: git undertaker failed (exit $rc)" >&2
	exit "$rc"
	;;
esac

if ! git rev-parse -q --verify refs/notes/undertaker >/dev/null; then
	echo "bench/demo.sh: git undertaker wrote no notes under refs/notes/undertaker" >&2
	exit 1
fi
show git log --notes=undertaker --reverse
git --no-pager log --notes=undertaker --reverse "$root..HEAD" | cat
printf '\nThe demo repository is %s: try git undertaker --show=all or --format=json there.\n' "$demo"
exit 0
