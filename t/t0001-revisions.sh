#!/bin/sh
test_description='revision arguments resolve as git rev-list resolves them, oldest first'
. ./test-lib.sh

# A - B - C ------- M - F      (main)
#      \           /
#       D - E ----             (side)
test_expect_success 'setup a history with a merge' '
	test_commit A &&
	test_commit B &&
	git checkout -q -b side &&
	test_commit D &&
	test_commit E &&
	git checkout -q main &&
	test_commit C &&
	test_tick &&
	git merge -q --no-ff -m M side &&
	git tag M &&
	test_commit F
'

# Every commit's parents that are in the list come before it.
check_topo () {
	if test -s "$1"; then
		git rev-list --no-walk=unsorted --parents $(cat "$1") >parents
	else
		: >parents
	fi &&
	awk 'NR == FNR { pos[$1] = FNR; next }
	     { for (i = 2; i <= NF; i++) if (($i in pos) && pos[$i] > pos[$1]) { print "parent " $i " after " $1; bad = 1 } }
	     END { exit bad }' "$1" parents >&2
}

# Same commits as git rev-list --reverse --topo-order; same order where the
# commits form one chain, a valid topological order where they branch.
check_revs () {
	test-revisions "$@" >actual &&
	git rev-list --reverse --topo-order "$@" >expect &&
	sort expect >expect.sorted &&
	sort actual >actual.sorted &&
	test_cmp expect.sorted actual.sorted &&
	check_topo actual &&
	if is_chain expect; then
		test_cmp expect actual
	fi
}

# Whether each commit of the list is the only parent of the next one.
is_chain () {
	prev=
	while read c; do
		if test -n "$prev" && test "$(git rev-list --parents -n 1 "$c" | cut -d" " -f2-)" != "$prev"; then
			return 1
		fi
		prev=$c
	done <"$1"
	return 0
}

run_checks () {
	where=$1
	test_expect_success "$where: A..B ranges, linear and across the merge" '
		(cd "$dir" && check_revs A..C && check_revs B..E && check_revs A..F &&
		 check_revs side..main && check_revs main..side)
	'
	test_expect_success "$where: an empty range prints nothing" '
		(cd "$dir" && check_revs C..A && test-revisions F..F >out && test_must_be_empty out)
	'
	test_expect_success "$where: ^A B and omitted ends mean HEAD" '
		(cd "$dir" && check_revs ^B F && check_revs ^C ^E F && check_revs C.. && check_revs ..E)
	'
	test_expect_success "$where: A...B uses the merge base" '
		(cd "$dir" && check_revs C...E && check_revs E...C && check_revs A...F && check_revs side...main)
	'
	test_expect_success "$where: X^! and X^@" '
		(cd "$dir" && check_revs "M^!" && check_revs "M^@" && check_revs "C^!" &&
		 check_revs "A^!" && check_revs "A^@" && check_revs "F^@" && check_revs "M^-" &&
		 check_revs "M^-2")
	'
	test_expect_success "$where: several ranges at once" '
		(cd "$dir" && check_revs A..B D..E && check_revs B..C ^D E && check_revs C E &&
		 check_revs A..C "M^!" ^E F)
	'
	test_expect_success "$where: the whole history of a merge" '
		(cd "$dir" && check_revs F main && check_revs E ^A && check_revs F ^A)
	'
	test_expect_success "$where: one revision alone is that commit" '
		(cd "$dir" &&
		 for x in A C M F main side "main~2" "M^2" "F^{commit}"; do
			test-revisions "$x" >actual &&
			git rev-parse "$x" >expect &&
			test_cmp expect actual || return 1
		 done)
	'
	test_expect_success "$where: no revision is HEAD" '
		(cd "$dir" && test-revisions >actual && git rev-parse HEAD >expect && test_cmp expect actual)
	'
	test_expect_success "$where: the root commit" '
		(cd "$dir" && test-revisions A >actual && git rev-parse A >expect && test_cmp expect actual &&
		 check_revs A ^B && check_revs A B)
	'
	test_expect_success "$where: a bad revision is fatal, with git's kind of message" '
		(cd "$dir" &&
		 for x in nosuch nosuch..C C..nosuch C...nosuch "nosuch^!" "nosuch^@" ^nosuch "A^-" "A^@^!"; do
			test_expect_code 128 test-revisions C "$x" >out 2>err &&
			test_must_be_empty out &&
			echo "git undertaker: bad revision '"'"'$x'"'"'" >expect &&
			test_cmp expect err || return 1
		 done)
	'
}

dir=.
run_checks 'work tree'

test_expect_success 'setup a bare clone' '
	git clone -q --bare . bare.git
'
dir=bare.git
run_checks 'bare repository'

test_expect_success 'GIT_DIR names the repository from anywhere' '
	mkdir -p elsewhere &&
	(cd elsewhere && GIT_DIR=../bare.git test-revisions B..C >../actual) &&
	git rev-parse C >expect &&
	test_cmp expect actual
'

test_done
