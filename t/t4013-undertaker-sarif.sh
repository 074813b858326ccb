#!/bin/sh
test_description='git undertaker --format=sarif: a SARIF 2.1.0 log that the schema accepts'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

python3 -c "import jsonschema" 2>/dev/null && test_set_prereq JSONSCHEMA
SCHEMA="$UT_SRC_DIR/t/t4013/sarif-schema-2.1.0.json"

validate () {
	python3 "$UT_SRC_DIR/t/t4013/validate.py" "$SCHEMA" "$1"
}

# One field of every result, one line each: jq-like, in python.
results () {
	python3 -c "
import json, sys
log = json.load(open(sys.argv[1]))
for r in log['runs'][0]['results']:
    loc = r['locations'][0]['physicalLocation']
    print(r['ruleId'], loc['artifactLocation']['uri'], loc['region']['startLine'],
          loc['region']['endLine'], r['partialFingerprints']['undertakerDefect/v1'],
          r['properties']['commit'][:7], r['baselineState'], r['message']['text'])
" "$1"
}

test_expect_success 'setup' '
	setup_foo_bar_commits &&
	write_file c.c <<-\EOF &&
	#ifdef CONFIG_BAZ
	int baz;
	#endif
	#if defined(CONFIG_FOO) && !defined(CONFIG_FOO)
	int never;
	#endif
	EOF
	git add c.c && test_tick && git commit -q -m "add c" && git tag c
'

test_expect_success JSONSCHEMA 'a range: one log, valid against the SARIF 2.1.0 schema' '
	test_expect_code 1 git undertaker --format=sarif base..c >log.sarif &&
	test_line_count = 1 log.sarif &&
	validate log.sarif &&
	results log.sarif >res &&
	test_line_count = 3 res &&
	grep "^dead/kconfig b.c 2 4 .* new #ifndef CONFIG_FOO\$" res ||
	grep "^dead/kconfig b.c 2 4 " res
'

test_expect_success 'a rule per kind and cause met, each with its help; results point at them' '
	python3 -c "
import json, sys
run = json.load(open(\"log.sarif\"))[\"runs\"][0]
rules = run[\"tool\"][\"driver\"][\"rules\"]
ids = [r[\"id\"] for r in rules]
assert len(ids) == len(set(ids)), ids
for r in rules:
    assert r[\"help\"][\"text\"] and r[\"shortDescription\"][\"text\"], r
for res in run[\"results\"]:
    assert rules[res[\"ruleIndex\"]][\"id\"] == res[\"ruleId\"], res
print(\" \".join(sorted(ids)))
" >ids &&
	echo "dead/code dead/kconfig dead/missing" >expect &&
	test_cmp expect ids
'

test_expect_success 'a second run (notes written by the first) gives the same log' '
	test_expect_code 1 git undertaker --format=sarif base..c >again.sarif &&
	test_cmp log.sarif again.sarif
'

test_expect_success JSONSCHEMA 'fingerprints: lines added above a defect move it, not its fingerprint' '
	git checkout -q -b moved c &&
	{ printf "/* a comment\n * of three lines\n */\n" && cat c.c; } >c.new && mv c.new c.c &&
	{ printf "int first;\n" && cat b.c; } >b.new && mv b.new b.c &&
	git commit -q -a -m "lines above" &&
	git undertaker --no-notes --format=sarif --show=all moved >all.sarif &&
	validate all.sarif &&
	results all.sarif >all.res &&
	awk "{print \$1, \$2, \$5}" res | sort >expect &&
	awk "\$7 == \"unchanged\" {print \$1, \$2, \$5}" all.res | sort >actual &&
	test_cmp expect actual &&
	awk "{print \$3}" all.res | sort -n | tr "\n" " " >lines &&
	printf "3 4 7 " >expect.lines &&
	test_cmp expect.lines lines
'

test_expect_success JSONSCHEMA 'a series from an mbox: valid, each result names its patch' '
	git format-patch -q --stdout --base=base base..c >series.mbox &&
	test_expect_code 1 git undertaker --format=sarif --mbox=series.mbox >mbox.sarif &&
	validate mbox.sarif &&
	results mbox.sarif | awk "{print \$1, \$2, \$5}" | sort >actual &&
	awk "{print \$1, \$2, \$5}" res | sort >expect &&
	test_cmp expect actual &&
	grep -c "\"patch\":\"\[PATCH 2/2\] add c\"" mbox.sarif >count &&
	echo 1 >expect.count &&
	test_cmp expect.count count
'

test_expect_success 'fingerprints do not change with blanks in the directive, do with the path' '
	git checkout -q -b respaced c &&
	sed "s/^#ifdef CONFIG_BAZ/#ifdef   CONFIG_BAZ/" c.c >c.new && mv c.new c.c &&
	git commit -q -a -m respaced &&
	git undertaker --no-notes --format=sarif --show=all respaced >sp.sarif &&
	results sp.sarif >sp.res &&
	grep "CONFIG_BAZ" res | awk "{print \$5}" >expect &&
	grep "CONFIG_BAZ" sp.res | awk "{print \$5}" >actual &&
	test_cmp expect actual &&
	git mv c.c d.c && git commit -q -m moved &&
	git undertaker --no-notes --format=sarif --show=all HEAD >mv.sarif &&
	results mv.sarif >mv.res &&
	grep "d.c.*CONFIG_BAZ" mv.res | awk "{print \$5}" >renamed &&
	! test_cmp expect renamed
'

test_expect_success JSONSCHEMA 'a clean run is a valid log with no results; an --all census too' '
	git undertaker --no-notes --format=sarif base >clean.sarif &&
	validate clean.sarif &&
	results clean.sarif >clean.res &&
	test_must_be_empty clean.res &&
	test_expect_code 1 git undertaker --no-notes --format=sarif --all c >census.sarif &&
	validate census.sarif &&
	results census.sarif >census.res &&
	test_line_count = 3 census.res
'

test_expect_success JSONSCHEMA 'a path with a space is a valid URI reference' '
	git checkout -q -b spaced c &&
	write_file "sub dir/e.c" <<-\EOF &&
	#ifdef CONFIG_QUUX
	#endif
	EOF
	git add . && git commit -q -m spaced &&
	test_expect_code 1 git undertaker --no-notes --format=sarif HEAD >sp2.sarif &&
	validate sp2.sarif &&
	grep "\"uri\":\"sub%20dir/e.c\"" sp2.sarif
'

test_expect_success 'usage: --format takes sarif, not what it does not know' '
	test_expect_code 129 git undertaker --format=xml base 2>err &&
	grep "sarif" err
'

test_done
