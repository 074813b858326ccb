#!/bin/sh
test_description='git undertaker --explain for the kbuild cause: the Makefile lines that decide a file'
. ./test-lib.sh
. "$UT_SRC_DIR/t/lib-undertaker.sh"

test_expect_success 'setup' '
	write_foo_bar_kconfig <<-\EOF &&
	config BAZ
		bool "baz"
	config NEVER
		bool "never"
		depends on BAZ && !BAZ
	EOF
	write_file Kbuild <<-\EOF &&
	obj-y += drivers/
	EOF
	write_file drivers/Makefile <<-\EOF &&
	# drivers
	obj-y += always.o
	obj-$(CONFIG_FOO) += foo/
	obj-$(CONFIG_FOO) += twice.o
	obj-$(CONFIG_BAR)   +=   twice.o
	EOF
	write_file drivers/foo/Makefile <<-\EOF &&
	obj-y += core.o
	obj-$(CONFIG_BAR) += bar.o
	obj-$(CONFIG_BAZ) += combo.o
	combo-y := part.o \
		other.o
	obj-$(CONFIG_NEVER) += never.o
	EOF
	for f in always foo/core foo/other; do
		echo "int x;" >drivers/$f.c || return 1
	done &&
	write_file drivers/foo/bar.c <<-\EOF &&
	#ifndef CONFIG_FOO
	int never;
	#endif
	EOF
	write_file drivers/foo/part.c <<-\EOF &&
	int part;
	#ifndef CONFIG_BAZ
	int never;
	#endif
	EOF
	write_file drivers/twice.c <<-\EOF &&
	#ifndef CONFIG_FOO
	int never;
	#endif
	EOF
	write_file drivers/foo/never.c <<-\EOF &&
	int never;
	EOF
	git add . && test_tick && git commit -q -m base
'

test_expect_success 'a file listed in a subdirectory: its line and each directory above' '
	test_expect_code 1 git undertaker --no-notes --explain HEAD >out &&
	grep "^drivers/foo/bar.c:1: dead block B0 (kbuild, global): #ifndef CONFIG_FOO$" out &&
	grep "^    drivers/foo/bar.c is built only by \`obj-\$(CONFIG_BAR) += bar.o\` (drivers/foo/Makefile:2), drivers/foo/ only by \`obj-\$(CONFIG_FOO) += foo/\` (drivers/Makefile:3), and drivers/ only by \`obj-y += drivers/\` (Kbuild:1)$" out
'

test_expect_success 'a part of a composite object: its part list, then the composite line' '
	grep "^drivers/foo/part.c:2: dead block B0 (kbuild, global): #ifndef CONFIG_BAZ$" out &&
	grep "^    drivers/foo/part.c is built only by \`combo-y := part.o other.o\` (drivers/foo/Makefile:4), drivers/foo/combo.o only by \`obj-\$(CONFIG_BAZ) += combo.o\` (drivers/foo/Makefile:3), drivers/foo/ only by" out
'

test_expect_success 'a file listed twice: not "only", and the Kconfig line that joins them' '
	grep "^drivers/twice.c:1: dead block B0 (kbuild, global): #ifndef CONFIG_FOO$" out &&
	grep "^    drivers/twice.c is built by \`obj-\$(CONFIG_FOO) += twice.o\` (drivers/Makefile:4) among others and drivers/ only by \`obj-y += drivers/\` (Kbuild:1)$" out &&
	grep "^    CONFIG_BAR (Kconfig:3) depends on FOO$" out
'

test_expect_success 'a file kbuild never compiles: its line and the Kconfig line' '
	grep "^drivers/foo/never.c:1: dead block B00 (kbuild, global)" out &&
	grep "^    drivers/foo/never.c is built only by \`obj-\$(CONFIG_NEVER) += never.o\` (drivers/foo/Makefile:6), drivers/foo/ only by" out &&
	grep "^    CONFIG_NEVER (Kconfig:[0-9]*) depends on BAZ && !BAZ$" out
'

test_expect_success 'JSON carries the same sentences' '
	test_expect_code 1 git undertaker --no-notes --explain --format=json HEAD >json &&
	grep -F "\"explanation\":[\"drivers/foo/bar.c is built only by \`obj-\$(CONFIG_BAR) += bar.o\` (drivers/foo/Makefile:2)," json
'

test_expect_success 'a directory the top Makefile enters: the line that names it, through a patsubst' '
	git init -q top &&
	(
		cd top &&
		write_file Kconfig <<-\EOF &&
		config FOO
			bool "foo"
		EOF
		write_file Makefile <<-\EOF &&
		drivers-y := drivers/
		drivers-y := $(patsubst %/, %/built-in.a, $(drivers-y))
		EOF
		write_file drivers/Makefile <<-\EOF &&
		obj-$(CONFIG_FOO) += foo.o
		EOF
		write_file drivers/foo.c <<-\EOF &&
		#ifndef CONFIG_FOO
		int never;
		#endif
		EOF
		git add . && test_tick && git commit -q -m top &&
		test_expect_code 1 git undertaker --no-notes --explain HEAD >../top.out
	) &&
	grep "^    drivers/foo.c is built only by \`obj-\$(CONFIG_FOO) += foo.o\` (drivers/Makefile:1) and drivers/ only by \`drivers-y := drivers/\` (Makefile:1)$" top.out
'

test_expect_success 'without --explain, nothing of it' '
	test_expect_code 1 git undertaker --no-notes HEAD >plain &&
	! grep "built" plain
'

test_done
