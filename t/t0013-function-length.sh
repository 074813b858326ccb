#!/bin/sh
test_description='no function of the suite is longer than 100 lines without saying why'
. ./test-lib.sh

# A function starts at a "{" in column 0 and ends at the next "}" in column
# 0 (the kernel's and git's style, which the tree keeps). One longer than
# 100 lines must say why in the comment just above it, with the words
# "longer than 100 lines".
test_expect_success 'every function is at most 100 lines, or says why' '
	(cd "$UT_SRC_DIR" && ls common/*.c git-*/*.c git-*/*/*.c t/helper/*.c fuzz/*.c 2>/dev/null) >files &&
	test_line_count -gt 60 files &&
	while read f
	do
		awk -v file="$f" "
			/^\\{/ { start = NR; why = (NR - last_comment_end <= 3 && reason) }
			/^\\}/ && start {
				if (NR - start + 1 > 100 && !why)
					print file \":\" start \": \" NR - start + 1 \" lines\"
				start = 0
			}
			/^\\/\\*/ { in_comment = 1; reason = 0 }
			in_comment && /longer than 100 lines/ { reason = 1 }
			in_comment && /\\*\\// { in_comment = 0; last_comment_end = NR }
		" "$UT_SRC_DIR/$f"
	done <files >long &&
	test_must_be_empty long
'

test_done
