# Shared by the git undertaker tests: source it after test-lib.sh.

# The tree most of them start from: FOO, and BAR that depends on FOO; commit
# "base" adds a.c (a block under FOO), commit "bad" adds b.c, whose
# #ifndef CONFIG_FOO inside #ifdef CONFIG_BAR no configuration compiles.
setup_foo_bar_commits () {
	write_file Kconfig <<-\EOF &&
	config FOO
		bool "foo"
	config BAR
		bool "bar"
		depends on FOO
	EOF
	write_file a.c <<-\EOF &&
	#ifdef CONFIG_FOO
	int foo;
	#endif
	EOF
	git add . && test_tick && git commit -q -m base && git tag base &&
	write_file b.c <<-\EOF &&
	#ifdef CONFIG_BAR
	#ifndef CONFIG_FOO
	int never;
	#endif
	#endif
	EOF
	git add . && test_tick && git commit -q -m "add b" && git tag bad
}
