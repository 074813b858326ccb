#!/bin/sh
test_description='the architecture document and the tree agree, file for file'
. ./test-lib.sh

doc="$UT_SRC_DIR/Documentation/technical/design.adoc"

# Every source file of the library and of the commands is named in the
# document (its module's row, or its command's paragraph).
test_expect_success 'every file of common/ and of each command is in design.adoc' '
	(cd "$UT_SRC_DIR" && ls common/*.[ch] common/*.cc git-*/*.[ch]) >files &&
	test_line_count -gt 40 files &&
	while read f
	do
		b=${f##*/} &&
		grep -q "\\b$b\\b" "$doc" || echo "$f"
	done <files >unnamed &&
	test_must_be_empty unnamed
'

# And every file the document names is there: a file renamed or removed
# takes its line in the document with it.
test_expect_success 'every .c and .h file design.adoc names exists' '
	# Whole names only: not the "internal.h" of a pattern like "*-internal.h".
	grep -oE "(^|[^*a-z0-9_-])[a-z0-9_][a-z0-9_-]*\\.(cc|c|h)\\b" "$doc" |
	sed "s/^[^a-z0-9_]//" | sort -u >named &&
	test_line_count -gt 40 named &&
	while read b
	do
		found= &&
		for d in common git-undertaker git-vampyr git-vampyr/cc git-backport t/helper fuzz
		do
			if test -e "$UT_SRC_DIR/$d/$b"; then found=$d; fi
		done &&
		test -n "$found" || echo "$b"
	done <named >missing &&
	test_must_be_empty missing
'

test_done
