#!/bin/sh
test_description='git undertaker: paths with newlines, quotes and non-ASCII bytes quoted as git quotes them'
. ./test-lib.sh

test_expect_success 'setup: dead blocks in files with awkward names' '
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	EOF
	printf "#ifdef CONFIG_NOPE\nint x;\n#endif\n" >"$(printf "new\nline.c")" &&
	printf "#ifdef CONFIG_NOPE\nint x;\n#endif\n" >"$(printf "caf\303\251.c")" &&
	printf "#ifdef CONFIG_NOPE\nint x;\n#endif\n" >"q\"uote.c" &&
	git add . && test_tick && git commit -q -m awkward
'

test_expect_success 'text output and note quote the paths as git does' '
	test_expect_code 1 git undertaker HEAD >out &&
	git diff-tree --root --name-only -r HEAD | grep "\\.c" | sort >paths &&
	grep -F "\"new\\nline.c\"" paths &&
	for p in $(cat paths); do
		grep -F "$p:1: dead block B0" out || return 1
	done &&
	test $(grep -c ":1: dead block B0" out) = 3 &&
	git notes --ref=undertaker show HEAD >note &&
	grep -F "\"new\\nline.c\":1: dead block B0" note &&
	grep -F "\"caf\\303\\251.c\":1: dead block B0" note &&
	grep -F "\"q\\\"uote.c\":1: dead block B0" note
'

test_expect_success 'core.quotePath=false prints non-ASCII bytes as they are' '
	git config core.quotePath false &&
	test_expect_code 1 git undertaker --force --no-notes HEAD >out &&
	grep "^café.c:1: dead block B0" out &&
	grep -F "\"new\\nline.c\":1: dead block B0" out
'

test_done
