#!/bin/sh
test_description='--format=json: JSON Lines in all three commands, one object per commit analysed, each with commit'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-backport.sh"
. "$UT_SRC_DIR/t/lib-undertaker.sh"

# check_jsonl <file> <count> <required keys...>: every line one JSON object
# holding the keys; count of lines; commit a full object id.
check_jsonl () {
	python3 - "$@" <<-\PY
	import json, re, sys
	path, count, keys = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
	lines = open(path).read().split("\n")
	assert lines[-1] == "", "no newline at the end"
	lines = lines[:-1]
	assert len(lines) == count, (len(lines), count)
	for n, line in enumerate(lines, 1):
	    o = json.loads(line)
	    assert isinstance(o, dict), (n, o)
	    for k in ["commit"] + keys:
	        assert k in o, (n, k, sorted(o))
	    assert re.fullmatch("[0-9a-f]{40}", o["commit"]), o["commit"]
	print("%d objects" % len(lines))
	PY
}

test_expect_success 'setup' '
	setup_foo_bar_commits &&
	write_file c.c <<-\EOF &&
	int c(void) { return foo_new_api(1); }
	EOF
	git add . && test_tick && git commit -q -m "add c" && git tag tip
'

test_expect_success 'git undertaker: one object per commit of the range' '
	test_expect_code 1 git undertaker --no-notes --format=json base..tip >out &&
	check_jsonl out 2 defects &&
	git rev-list --reverse base..tip >expect &&
	python3 -c "import json; [print(json.loads(l)[\"commit\"]) for l in open(\"out\")]" >actual &&
	test_cmp expect actual
'

test_expect_success 'git undertaker --all: one object, for the commit of the census' '
	test_expect_code 1 git undertaker --all --format=json tip >out &&
	check_jsonl out 1 defects
'

test_expect_success 'git vampyr: one object, for the commit it covers' '
	git vampyr --commit=tip~1 --no-notes --format=json -o frag >out &&
	check_jsonl out 1 arch configs &&
	git rev-parse tip~1 >expect &&
	python3 -c "import json; print(json.loads(open(\"out\").read())[\"commit\"])" >actual &&
	test_cmp expect actual
'

test_expect_success SPATCH 'git backport: one object per commit, the preview on the last' '
	write_new_api_rule rules/0001-api.cocci &&
	git backport --no-notes --format=json --rules=rules base..tip >out &&
	check_jsonl out 2 changed failed &&
	tail -n 1 out >last &&
	check_jsonl last 1 preview &&
	head -n 1 out >first &&
	! grep preview first &&
	git backport --format=json --rules=rules --at=tip >out &&
	check_jsonl out 1 changed failed preview
'

test_done
