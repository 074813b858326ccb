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

# Exactly git rev-list --reverse --topo-order: same commits, same order (and
# so, a topological one: checked on its own to make a failure readable).
# With -n or --skip, git rev-list chooses in its own order (by date, newest
# first) and the chosen commits then come in the range's topological order.
check_revs () {
	test-revisions "$@" >actual &&
	git rev-list "$@" >chosen &&
	unlimited= && skip_next= &&
	for _arg in "$@"; do
		if test -n "$skip_next"; then skip_next=; continue; fi
		case "$_arg" in
		-n|--skip|--max-count) skip_next=1 ;;
		-n*|--skip=*|--max-count=*) ;;
		*) unlimited="$unlimited $_arg" ;;
		esac
	done &&
	git rev-list --reverse --topo-order $unlimited >order &&
	awk "NR == FNR { keep[\$1] = 1; next } (\$1 in keep)" chosen order >expect &&
	check_topo actual &&
	test_cmp expect actual
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

test_expect_success 'setup a branchy history with merges and clock skew' '
	cat >gen.pl <<-\EOF &&
	srand(7); my $t = 1112911993; my %head = (main => 0); my @names = ("main");
	for my $i (1..600) {
		my $br = $names[int(rand(@names))];
		$t += int(rand(120)) - 30;
		print "commit refs/heads/$br\nmark :$i\ncommitter C <c\@x> $t +0000\ndata <<END\nc$i\nEND\n";
		print "from :$head{$br}\n" if $head{$br};
		my @o = grep { $_ ne $br && $head{$_} } @names;
		print "merge :$head{$o[int(rand(@o))]}\n" if @o && rand() < 0.2;
		print "M 644 inline f\ndata <<END\n$i\nEND\n\n";
		$head{$br} = $i;
		if (rand() < 0.05 && @names < 8) {
			push @names, "b$i";
			$head{"b$i"} = $i;
			print "reset refs/heads/b$i\nfrom :$i\n\n";
		}
	}
	EOF
	git init -q dag &&
	perl gen.pl >stream &&
	(cd dag && git fast-import --quiet <../stream &&
	 test $(git rev-list --merges --all | wc -l) -gt 50)
'

test_expect_success 'the order is exactly git'"'"'s on a branchy history' '
	(cd dag &&
	 git rev-list --all >all &&
	 for i in $(seq 1 20); do
		a=$(sed -n "$((i * 13 % 600 + 1))p" all) &&
		b=$(sed -n "$((i * 29 % 600 + 1))p" all) &&
		c=$(sed -n "$((i * 47 % 600 + 1))p" all) &&
		check_revs $a..$b && check_revs $a...$b && check_revs $a $b ^$c &&
		check_revs "$a^@" $b && check_revs $a $b $c || return 1
	 done &&
	 check_revs $(git for-each-ref --format="%(refname)" refs/heads))
'

test_expect_success 'the same with a commit-graph file (git walks differently then)' '
	(cd dag && git commit-graph write --reachable &&
	 for i in $(seq 1 20); do
		a=$(sed -n "$((i * 31 % 600 + 1))p" all) &&
		b=$(sed -n "$((i * 17 % 600 + 1))p" all) &&
		check_revs $a $b && check_revs $a..$b || return 1
	 done)
'

test_expect_success 'commit limiting options are git rev-list'"'"'s' '
	(cd dag &&
	 t=$(git log -1 --format=%ct $(sed -n 300p all)) &&
	 for i in $(seq 1 8); do
		a=$(sed -n "$((i * 13 % 600 + 1))p" all) &&
		b=$(sed -n "$((i * 29 % 600 + 1))p" all) &&
		check_revs -n 5 $a..$b && check_revs --max-count=3 $b && check_revs --skip=2 -n 4 $b ^$a &&
		check_revs --no-merges $a...$b && check_revs --merges $b ^$a &&
		check_revs --first-parent $a..$b && check_revs --first-parent --merges -n 7 $b &&
		check_revs --since=@$t $a $b && check_revs --until=@$t --skip 1 $a..$b &&
		check_revs --after=@$((t - 600)) --before=@$((t + 600)) $b &&
		check_revs --grep="c1[0-9]*$" $b ^$a && check_revs --grep=nosuch $b &&
		check_revs --author=C --grep="^c2" --no-merges $b && check_revs --author=nobody $b || return 1
	 done)
'

test_expect_success 'limiting options with no revision walk from HEAD; bad ones are fatal' '
	test-revisions -n 2 >actual &&
	git rev-list --reverse --topo-order -n 2 HEAD >expect &&
	test_cmp expect actual &&
	check_revs -n -1 F && check_revs --max-count=-3 F && check_revs --skip=-1 -n 2 F &&
	check_revs -n 99999999999999999999 F &&
	test_expect_code 128 test-revisions --max-count=x F 2>err &&
	grep "max-count expects a number" err &&
	test_expect_code 128 test-revisions --bogus F 2>err &&
	grep "unknown revision option" err &&
	test_expect_code 128 test-revisions --grep="a\\(" F 2>err &&
	grep "bad pattern" err
'

test_expect_success 'git replace: the walk follows the replacement, as git rev-list does' '
	git replace --graft M C &&
	check_revs A..F && check_revs F main && check_revs "M^@" && check_revs ^B F &&
	GIT_NO_REPLACE_OBJECTS=1 test-revisions A..F >actual &&
	GIT_NO_REPLACE_OBJECTS=1 git rev-list --reverse --topo-order A..F >expect &&
	test_cmp expect actual &&
	git -c core.useReplaceRefs=false rev-list --reverse --topo-order A..F >expect &&
	test_cmp expect actual &&
	git replace -d M
'

test_expect_success 'GIT_NAMESPACE does not move the refs a revision names (git: only transports)' '
	GIT_NAMESPACE=foo git rev-list --reverse --topo-order main~2..main >expect &&
	GIT_NAMESPACE=foo test-revisions main~2..main >actual &&
	test_cmp expect actual
'

test_expect_success 'a linked worktree has its own HEAD' '
	git worktree add -q --detach linked E &&
	(cd linked && test-revisions >../actual && check_revs C..M) &&
	git rev-parse E >expect && test_cmp expect actual
'

test_expect_success 'GIT_DIR names the repository from anywhere' '
	mkdir -p elsewhere &&
	(cd elsewhere && GIT_DIR=../bare.git test-revisions B..C >../actual) &&
	git rev-parse C >expect &&
	test_cmp expect actual
'

test_done
