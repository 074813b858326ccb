# Shared by the git undertaker tests: source it after test-lib.sh.

# write_foo_bar_kconfig: the Kconfig most of them start from, FOO and BAR
# that depends on FOO, then the lines on standard input (none: </dev/null).
write_foo_bar_kconfig () {
	{
		printf 'config FOO\n\tbool "foo"\nconfig BAR\n\tbool "bar"\n\tdepends on FOO\n' &&
		cat
	} >Kconfig
}

# write_arch_kconfig: the top Kconfig of a tree with architectures,
# COMMON and then arch/$(SRCARCH)/Kconfig (each architecture's own).
write_arch_kconfig () {
	printf 'mainmenu "Test/$(SRCARCH)"\nconfig COMMON\n\tbool "common"\nsource "arch/$(SRCARCH)/Kconfig"\n' >Kconfig
}

# The tree most of them start from: that Kconfig; commit "base" adds a.c (a
# block under FOO), commit "bad" adds b.c, whose #ifndef CONFIG_FOO inside
# #ifdef CONFIG_BAR no configuration compiles.
setup_foo_bar_commits () {
	write_foo_bar_kconfig </dev/null &&
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
