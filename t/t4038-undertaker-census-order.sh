#!/bin/sh
test_description='git undertaker: a file'"'"'s verdicts do not depend on the files checked before it'
. ./test-lib.sh

# x86 selects BAR, which depends on ARM64 || X86: checking that select asks
# the x86 model about ARM64, a symbol x86's Kconfig names but does not
# define. drivers/a.c (built on x86) says #ifdef CONFIG_ARM64: dead on x86,
# whether arch/x86/Kconfig was checked before it or not.
test_expect_success 'setup' '
	mkdir -p arch/x86 arch/arm64 drivers &&
	printf "mainmenu \"t\"\nsource \"arch/\$(SRCARCH)/Kconfig\"\nconfig BAR\n\tbool \"bar\"\n\tdepends on ARM64 || X86\n" >Kconfig &&
	printf "config X86\n\tdef_bool y\nconfig X86_ONLY\n\tbool \"x\"\n\tselect BAR\n" >arch/x86/Kconfig &&
	printf "config ARM64\n\tdef_bool y\n" >arch/arm64/Kconfig &&
	echo "obj-y += drivers/" >Makefile &&
	echo "obj-y += a.o" >drivers/Makefile &&
	printf "#ifdef CONFIG_ARM64\nint arm;\n#endif\n" >drivers/a.c &&
	git add . && test_tick && git commit -q -m tree &&
	echo "drivers/a.c:1: dead block B0 (kconfig, local: x86): #ifdef CONFIG_ARM64" >expect
'

test_expect_success 'the file alone' '
	test_expect_code 1 git undertaker --no-notes --all --arch=x86 -- drivers/ >out &&
	grep "^drivers/" out >actual &&
	test_cmp expect actual
'

test_expect_success 'after the Kconfig check that asked about ARM64: the same verdict' '
	rm -rf .git/undertaker &&
	test_expect_code 1 git undertaker --no-notes --all --arch=x86 -j1 >out &&
	grep "^drivers/" out >actual &&
	test_cmp expect actual &&
	rm -rf .git/undertaker &&
	test_expect_code 1 git undertaker --no-notes --all --arch=x86 -j2 >out2 &&
	test_cmp out out2
'

test_done
