#!/bin/sh
test_description='git backport: previews Coccinelle rules on the files a range touches'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-backport.sh"
need_spatch

# The threaded-interrupt evolution, as the backports project carried it for
# kernels before 2.6.31: calls go through a compat wrapper that needs a private
# member in the structure the driver uses for its device.
# Code indentation in here-documents: leading @ become tabs.
at_to_tab () {
	sed -e ':a' -e 's/^\(\t*\)@/\1\t/' -e 'ta'
}

write_rules () {
	mkdir -p "$1" &&
	write_file "$1/0001-threaded-irq.cocci" <<-\EOF &&
	// Backport: 2.6.31
	@ threaded_irq @
	identifier ret;
	expression irq, irq_handler, irq_thread_handler, flags, name;
	type T;
	T *private;
	@@
	-ret = request_threaded_irq(irq, irq_handler, irq_thread_handler, flags, name, private);
	+ret = compat_request_threaded_irq(&private->irq_compat, irq, irq_handler, irq_thread_handler, flags, name, private);

	@ sane_threaded_irq depends on threaded_irq @
	type threaded_irq.T;
	T *threaded_irq.private;
	expression irq;
	@@
	-free_irq(irq, private);
	+compat_free_threaded_irq(&private->irq_compat);

	@ modify_private_header depends on threaded_irq @
	type threaded_irq.T;
	@@
	T {
	+	struct compat_threaded_irq irq_compat;
	...
	};
	EOF
	write_new_api_rule "$1/0002-new-api.cocci" 5.10
}

test_expect_success 'setup: drivers and rules' '
	at_to_tab <<-\EOF | write_file drivers/net/foo/foo.c &&
	#include <linux/interrupt.h>
	#include "foo.h"

	static irqreturn_t foo_thread(int irq, void *data)
	{
	@return IRQ_HANDLED;
	}

	static int foo_probe(struct foo_priv *priv)
	{
	@int ret;

	@ret = request_threaded_irq(priv->irq, NULL, foo_thread,
	@@@@   IRQF_ONESHOT, "foo", priv);
	@return ret;
	}

	static void foo_remove(struct foo_priv *priv)
	{
	@free_irq(priv->irq, priv);
	}
	EOF
	at_to_tab <<-\EOF | write_file drivers/net/foo/foo.h &&
	#define FOO_REGS 16

	/* the structure the driver uses for its device */
	struct foo_priv {
	@int irq;
	@void __iomem *regs;
	};
	EOF
	at_to_tab <<-\EOF | write_file drivers/net/bar/bar.c &&
	int bar_init(void)
	{
	@return 0;
	}
	EOF
	git add drivers &&
	test_tick &&
	git commit -q -m "base" &&
	git tag base &&
	at_to_tab <<-\EOF | write_file drivers/net/bar/bar.c &&
	int bar_init(void)
	{
	@return foo_new_api(3);
	}
	EOF
	git commit -q -a -m "bar: new api" &&
	echo "/* x */" >>drivers/net/foo/foo.c &&
	git commit -q -a -m "foo: touch" &&
	write_rules rules
'

test_expect_success 'the threaded-interrupt rule rewrites the call and adds the member to the header' '
	git backport --rules=rules base..HEAD >out 2>err &&
	! grep "error" err &&
	grep "^+	ret = compat_request_threaded_irq(&priv->irq_compat, priv->irq, NULL," out &&
	grep "^+	compat_free_threaded_irq(&priv->irq_compat);" out &&
	grep "^-	free_irq(priv->irq, priv);" out &&
	grep "^+	return foo_old_api(3, 0);" out &&
	grep "^diff --git a/drivers/net/bar/bar.c b/drivers/net/bar/bar.c" out &&
	grep "^--- a/drivers/net/foo/foo.c" out &&
	grep "^+++ b/drivers/net/foo/foo.c" out &&
	# foo.h is no file of the range: spatch changed it reading foo.c.
	sed -n "/^diff --git a\/drivers\/net\/foo\/foo.h/,/^diff/p" out >foo_h.diff &&
	grep "^+	struct compat_threaded_irq irq_compat;" foo_h.diff &&
	grep "^ struct foo_priv {" foo_h.diff &&
	test $(grep -c "^diff --git" out) = 3
'

test_expect_success 'the note of the commit that touched foo.c names the header changed through it' '
	git backport --rules=rules base..HEAD >/dev/null &&
	git notes --ref=backport show HEAD >note &&
	grep "^changed drivers/net/foo/foo.c: 0001-threaded-irq.cocci$" note &&
	grep "^changed drivers/net/foo/foo.h through drivers/net/foo/foo.c: 0001-threaded-irq.cocci$" note &&
	git notes --ref=backport show HEAD~1 >note &&
	grep "^changed drivers/net/bar/bar.c: " note &&
	! grep "foo" note
'

test_expect_success 'nothing of the work tree, index or HEAD changes' '
	git rev-parse HEAD >head.before &&
	git status --porcelain -uno >status.before &&
	git ls-files -s >index.before &&
	git backport --rules=rules base..HEAD >/dev/null &&
	git rev-parse HEAD >head.after &&
	git status --porcelain -uno >status.after &&
	git ls-files -s >index.after &&
	test_cmp index.before index.after &&
	test_cmp head.before head.after &&
	test_cmp status.before status.after
'

test_expect_success 'the diff applies to a checkout of the tip and equals spatch in place, rule after rule' '
	git backport --rules=rules base..HEAD >preview.diff &&
	rm -rf co spatched &&
	git worktree add -q --detach co HEAD &&
	(cd co && git apply ../preview.diff) &&
	git worktree add -q --detach spatched HEAD &&
	(
		cd spatched &&
		for r in ../rules/0001-threaded-irq.cocci ../rules/0002-new-api.cocci; do
			for f in drivers/net/bar/bar.c drivers/net/foo/foo.c drivers/net/foo/foo.h; do
				spatch --very-quiet --in-place --sp-file $r $f >/dev/null 2>&1 || exit 1
			done
		done
	) &&
	for f in drivers/net/bar/bar.c drivers/net/foo/foo.c drivers/net/foo/foo.h; do
		test_cmp spatched/$f co/$f || return 1
	done &&
	git worktree remove --force co &&
	git worktree remove --force spatched
'

test_expect_success 'the range decides the files: only those its commits touch' '
	git backport --rules=rules HEAD >out &&
	grep "^diff --git a/drivers/net/foo/foo.c" out &&
	! grep "bar.c" out &&
	git backport --rules=rules HEAD~1 >out &&
	grep "^diff --git a/drivers/net/bar/bar.c" out &&
	! grep "foo.c" out
'

test_expect_success 'no range means HEAD; a pathspec limits the files of a range' '
	git backport --rules=rules HEAD >expect &&
	git backport --rules=rules >actual &&
	test_cmp expect actual &&
	git backport --rules=rules base..HEAD -- drivers/net/bar >out &&
	grep "^diff --git a/drivers/net/bar/bar.c" out &&
	! grep "foo\.[ch]" out &&
	git backport --rules=rules base..HEAD -- "*/foo/*" >out &&
	grep "^diff --git a/drivers/net/foo/foo.c" out &&
	! grep "bar.c" out
'

test_expect_success 'two C files of one batch read the header: it changes once, as spatch --dir leaves it' '
	sed -e "s/foo_thread/foo2_thread/g" -e "s/foo_probe/foo2_probe/" -e "s/foo_remove/foo2_remove/" \
		drivers/net/foo/foo.c >drivers/net/foo/foo2.c &&
	git add drivers/net/foo/foo2.c &&
	git commit -q -m "foo2" &&
	git backport -j 1 --rules=rules --at=HEAD -- drivers/net/foo/foo.c drivers/net/foo/foo2.c >preview.diff &&
	test $(grep -c "^+	struct compat_threaded_irq irq_compat;" preview.diff) = 1 &&
	rm -rf co spatched &&
	git worktree add -q --detach co HEAD &&
	(cd co && git apply ../preview.diff) &&
	git worktree add -q --detach spatched HEAD &&
	(
		cd spatched &&
		spatch --very-quiet --in-place --sp-file ../rules/0001-threaded-irq.cocci \
			--dir drivers/net/foo >/dev/null 2>&1
	) &&
	for f in foo.c foo2.c foo.h; do
		test_cmp spatched/drivers/net/foo/$f co/drivers/net/foo/$f || return 1
	done &&
	git backport -j 1 --rules=rules --at=HEAD -- drivers/net/foo/foo.c drivers/net/foo/foo2.c >again.diff &&
	test_cmp preview.diff again.diff &&
	# spatch -j 2 changes the header once per worker: the same preview.
	rm -rf .git/backport/cache &&
	git backport -j 2 --rules=rules --at=HEAD -- drivers/net/foo/foo.c drivers/net/foo/foo2.c >two.diff &&
	test_cmp preview.diff two.diff &&
	git worktree remove --force co &&
	git worktree remove --force spatched &&
	git reset -q --hard HEAD~1
'

test_expect_success '--target runs only the rules for newer kernels (4.9 < 4.10 < 5.0)' '
	git backport --rules=rules --target=2.6.30 base..HEAD >out &&
	grep foo_old_api out &&
	grep compat_request_threaded_irq out &&
	git backport --rules=rules --target=5.4 base..HEAD >out &&
	grep foo_old_api out &&
	! grep compat_request_threaded_irq out &&
	git backport --rules=rules --target=5.10 base..HEAD >out &&
	test_must_be_empty out &&
	mkdir -p rules410 &&
	sed "1s/.*/\/\/ Backport: 4.10/" rules/0002-new-api.cocci >rules410/0002-new-api.cocci &&
	git backport --rules=rules410 --target=4.9 base..HEAD >out &&
	grep foo_old_api out &&
	git backport --rules=rules410 --target=4.10 base..HEAD >out &&
	test_must_be_empty out &&
	git backport --rules=rules410 --target=v4.10-rc3 base..HEAD >out &&
	grep foo_old_api out
'

test_expect_success 'a bad --target is a usage error' '
	test_expect_code 129 git backport --rules=rules --target=banana 2>err &&
	grep "not a kernel version" err
'

test_expect_success 'rules run in file-name order: the later rule sees the earlier output' '
	mkdir -p ordered &&
	write_file ordered/0010-second.cocci <<-\EOF &&
	@@
	@@
	-step_two()
	+step_three()
	EOF
	write_file ordered/0001-first.cocci <<-\EOF &&
	@@
	@@
	-step_one()
	+step_two()
	EOF
	at_to_tab <<-\EOF | write_file steps/steps.c &&
	void f(void)
	{
	@step_one();
	}
	EOF
	git add steps &&
	git commit -q -m steps &&
	git backport --rules=ordered HEAD >out &&
	grep "^+	step_three();" out &&
	git reset -q --hard HEAD~1
'

test_expect_success 'a rule that does not parse fails alone, with spatch'\''s message' '
	rm -rf mixed &&
	write_rules mixed &&
	write_file mixed/0000-broken.cocci <<-\EOF &&
	@@
	expression E
	@@
	-foo(E)
	+bar(E)
	EOF
	test_expect_code 1 git backport --rules=mixed base..HEAD >out 2>err &&
	grep "0000-broken.cocci: .*parse error" err &&
	grep compat_request_threaded_irq out &&
	grep foo_old_api out
'

test_expect_success 'a C file that spatch cannot parse is reported per file and rule' '
	at_to_tab <<-\EOF | write_file drivers/net/baz/baz.c &&
	int baz(void)
	{
	@int timeout = 5;
	@int ret = request_threaded_irq(1, 2 3, timeout ;;; }} {
	@return ret
	EOF
	git add drivers/net/baz &&
	git commit -q -m "baz: broken" &&
	git backport --rules=rules base..HEAD >out 2>err &&
	grep "^git backport: warning: drivers/net/baz/baz.c: cannot parse line [0-9]*, column [0-9]*, around .* (0001-threaded-irq.cocci)$" err &&
	test $(grep -c "baz.c" err) = 1 &&
	grep "^git backport: warning: 1 file could not be parsed in part (spatch skips what it cannot parse, with or without git backport); see --verbose$" err &&
	test_expect_code 1 git backport --strict-parsing --rules=rules base..HEAD >out2 2>err2 &&
	test_cmp out out2 &&
	grep "^git backport: error: 1 file could not be parsed in part" err2 &&
	# The source lines spatch prints are no message, "timeout" in them no timeout.
	! grep "bad:" err &&
	grep compat_request_threaded_irq out &&
	! grep "baz.c" out &&
	git reset -q --hard HEAD~1
'

test_expect_success 'rules from a tree of the repository (another branch)' '
	git backport --rules=rules base..HEAD >expect &&
	GIT_INDEX_FILE=$PWD/.git/rules-index git add rules &&
	tree=$(GIT_INDEX_FILE=$PWD/.git/rules-index git write-tree) &&
	git branch rules-branch $(echo rules | git commit-tree $tree) &&
	mv rules rules.away &&
	git backport --rules=rules-branch:rules base..HEAD >actual &&
	mv rules.away rules &&
	test_cmp expect actual &&
	test_expect_code 128 git backport --rules=rules-branch:nowhere base..HEAD 2>err &&
	grep "nowhere" err
'

test_expect_success '--exit-code: 1 with changes, 0 without' '
	test_expect_code 1 git backport --exit-code --rules=rules base..HEAD >/dev/null &&
	git backport --exit-code --rules=rules --target=5.10 base..HEAD >out &&
	test_must_be_empty out
'

test_expect_success '--stat and --format=json give per-rule figures' '
	git backport --stat --rules=rules base..HEAD >out &&
	grep "^0001-threaded-irq.cocci  *2  *2  *0 " out &&
	grep "^0002-new-api.cocci  *1  *1  *0 " out &&
	grep "3 of 3 files changed by 2 rules" out &&
	git backport --format=json --rules=rules base..HEAD >out.json &&
	git rev-list --reverse base..HEAD >commits &&
	python3 -c "
import json, sys
lines = open(\"out.json\").read().splitlines()
objs = [json.loads(l) for l in lines]
# JSON Lines: one object per commit of the range, oldest first, each with commit.
assert [o[\"commit\"] for o in objs] == open(\"commits\").read().split(), objs
for o in objs:
    assert isinstance(o[\"changed\"], list) and isinstance(o[\"failed\"], list), o
    for c in o[\"changed\"]:
        assert c[\"path\"] and c[\"rules\"] and isinstance(c[\"headers\"], list), c
assert all(\"preview\" not in o for o in objs[:-1])
d = objs[-1][\"preview\"]
r = {x[\"name\"]: x for x in d[\"rules\"]}
assert r[\"0001-threaded-irq.cocci\"][\"files_changed\"] == 2, r
assert r[\"0001-threaded-irq.cocci\"][\"hunks\"] == 2, r
assert r[\"0002-new-api.cocci\"][\"version\"] == \"5.10\", r
assert \"seconds\" in r[\"0002-new-api.cocci\"]
assert d[\"diff\"].startswith(\"diff --git a/drivers/net/bar/bar.c\"), d[\"diff\"][:80]
assert [f[\"path\"] for f in d[\"files\"]] == [\"drivers/net/bar/bar.c\", \"drivers/net/foo/foo.c\", \"drivers/net/foo/foo.h\"]
"
'

test_expect_success '-j 1 and -j 2 give the same diff' '
	git backport -j 1 --rules=rules base..HEAD >one &&
	git backport -j 2 --rules=rules base..HEAD >two &&
	test_cmp one two
'

test_expect_success 'a rule declaring virtual patch runs with -D patch; one with report modes only is a note' '
	mkdir -p virt &&
	write_file virt/0001-virt.cocci <<-\EOF &&
	virtual patch
	@depends on patch@
	expression E;
	@@
	-foo_new_api(E)
	+foo_older_api(E)
	EOF
	# It declares virtual patch: run with -D patch, as make coccicheck MODE=patch.
	git backport --rules=virt base..HEAD >out 2>err &&
	grep "^+	return foo_older_api(3);" out &&
	git backport -D patch --rules=virt base..HEAD >out2 &&
	test_cmp out out2 &&
	# Report or context modes only: a note, not run, no failure.
	write_file virt/0002-report.cocci <<-\EOF &&
	virtual report
	virtual context, org
	@r depends on report@
	expression E;
	@@
	foo_new_api(E)
	EOF
	git backport --rules=virt base..HEAD >out3 2>err &&
	test_cmp out out3 &&
	grep "note: 0002-report.cocci: no patch mode (virtual report, context, org only): not run" err &&
	! grep "error:" err
'

test_expect_success '--at previews whole paths at one commit' '
	git backport --rules=rules --at=base -- drivers/net/foo >out &&
	grep "^diff --git a/drivers/net/foo/foo.c" out &&
	! grep bar.c out &&
	git backport --rules=rules --at=HEAD -- drivers >out &&
	grep "^diff --git a/drivers/net/bar/bar.c" out &&
	test_expect_code 129 git backport --rules=rules --at=HEAD HEAD~1 2>err
'

test_done
