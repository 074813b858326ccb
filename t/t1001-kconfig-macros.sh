#!/bin/sh
test_description='kconfig: the preprocessor (variables, user functions, built-ins) and probes that are never run'
. ./test-lib.sh

test_expect_success 'a tree with macros' '
	cat >Kconfig <<\EOT
# helpers as scripts/Kconfig.include defines them
comma := ,
if-success = $(shell,{ $(1); } >/dev/null 2>&1 && echo "$(2)" || echo "$(3)")
success = $(if-success,$(1),y,n)
cc-option = $(success,$(CC) -Werror $(1) -c -x c /dev/null -o /dev/null)
cc-name := $(shell,echo gcc)
greet = hello-$(1)-$(2)
LIST := a
LIST += b
REC = $(LIST) c
LIST += d
NAME := FO
$(NAME)2 := O

$(error-if,$(success,test -z "$(cc-name)"),no compiler)
$(warning-if,y,this is line $(lineno) of $(filename))
$(info,nothing is printed)

config $(NAME)O
	bool "$(greet,x,y) $(REC)"

config CC_HAS_FOO
	def_bool $(cc-option,-mfoo)

config CC_HAS_FOO_AGAIN
	def_bool $(cc-option,-mfoo)

config CC_HAS_BAR
	bool
	default $(cc-option,-mbar) if FOO

config CC_NAME
	string
	default "$(cc-name)"

config PROMPT_WITH_PROBE
	bool "compiler $(cc-name)$(comma) arch $(SRCARCH)"

config ARCH_IS
	bool
	default "$(ARCH)" = "x86"

config UNKNOWN_ENV
	string
	default "$(SOME_ENV_VAR)"

config TOOLS
	def_bool $(ld-option,--foo)

config $(FO2)_X
	bool

SELF = $(SELF) x
config AFTER_RECURSION
	bool "$(SELF)"
EOT
'

test_expect_success 'variables, functions, $(ARCH), $(filename), $(lineno) expand' '
	test_expect_code 1 test-kconfig --arch=x86 --details . >actual 2>err &&
	grep "^config O_X bool Kconfig:50" actual &&
	grep -A1 "^config FOO bool Kconfig:19" actual >foo &&
	printf "config FOO bool Kconfig:19\n\tprompt \"hello-x-y a b d c\"\n" >expect &&
	test_cmp expect foo &&
	grep "default \"x86\" = \"x86\"" actual &&
	grep "warning: Kconfig:16: this is line 16 of Kconfig" err &&
	! grep "nothing is printed" err actual
'

test_expect_success 'a self-referencing variable is an error, and parsing goes on' '
	grep "error: Kconfig:55: recursive variable .SELF. references itself" err &&
	grep "^config AFTER_RECURSION" actual &&
	grep "^1 errors" err
'

test_expect_success 'a function calling itself without end is an error, not a hang' '
	mkdir -p rec &&
	printf "F = \$(F,\$(1))\$(F,\$(1))\nconfig A\n\tbool \"\$(F,x)\"\nconfig B\n\tbool\n" >rec/Kconfig &&
	test_expect_code 1 test-kconfig --details rec >rec.out 2>rec.err &&
	grep "error: Kconfig:3: macro expansion nested too deeply" rec.err &&
	grep -A1 "^config A" rec.out | grep "prompt \"\$(F,x)\"" &&
	grep "^config B" rec.out
'

test_expect_success 'error-if on a probe is not an error: probes are never run' '
	! grep "no compiler" err
'

test_expect_success 'toolchain probes become free probe symbols; the same probe is the same symbol' '
	grep "^symbol \$(shell,.*-mfoo.*) unknown probe" actual >probes &&
	test $(wc -l <probes) = 1 &&
	test $(grep -c "^	default \$(shell,{ \$(CC) -Werror -mfoo " actual) = 2 &&
	grep "^	default \$(shell,.*-mbar.*) if FOO" actual &&
	grep "^symbol \$(ld-option,--foo) unknown probe" actual
'

test_expect_success 'string defaults from a tool or an unknown environment variable are free' '
	grep -A1 "^config CC_NAME" actual | grep "default \$(shell,echo gcc)" &&
	grep -A1 "^config UNKNOWN_ENV" actual | grep "default \$(SOME_ENV_VAR)" &&
	grep "^symbol \$(SOME_ENV_VAR) unknown probe" actual &&
	grep "prompt \"compiler \$(shell,echo gcc), arch x86\"" actual
'

test_expect_success '--env gives an environment variable its value' '
	test_expect_code 1 test-kconfig --arch=x86 --env SOME_ENV_VAR=val --details . >actual 2>/dev/null &&
	grep -A1 "^config UNKNOWN_ENV" actual | grep "default \"val\""
'

test_expect_success 'macros expand per architecture over the same cached tokens' '
	test_expect_code 1 test-kconfig --arch=arm --details . >arm 2>/dev/null &&
	grep "default \"arm\" = \"x86\"" arm &&
	grep "arch arm\"" arm
'

test_expect_success 'the Kconfig.include of Linux 6.1 expands without errors' '
	mkdir -p linux/scripts &&
	cat >linux/scripts/Kconfig.include <<\EOT &&
comma       := ,
quote       := "
squote      := '"'"'
empty       :=
space       := $(empty) $(empty)
dollar      := $
right_paren := )
left_paren  := (
if-success = $(shell,{ $(1); } >/dev/null 2>&1 && echo "$(2)" || echo "$(3)")
success = $(if-success,$(1),y,n)
failure = $(if-success,$(1),n,y)
cc-option = $(success,trap "rm -rf .tmp_$$" EXIT; mkdir .tmp_$$; $(CC) -Werror $(CLANG_FLAGS) $(1) -c -x c /dev/null -o .tmp_$$/tmp.o)
ld-option = $(success,$(LD) -v $(1))
as-instr = $(success,printf "%b\n" "$(1)" | $(CC) $(CLANG_FLAGS) -c -x assembler-with-cpp -o /dev/null -)
$(error-if,$(failure,command -v $(CC)),C compiler '"'"'$(CC)'"'"' not found)
cc-info := $(shell,$(srctree)/scripts/cc-version.sh $(CC))
$(error-if,$(success,test -z "$(cc-info)"),Sorry$(comma) this C compiler is not supported.)
cc-name := $(shell,set -- $(cc-info) && echo $1)
cc-version := $(shell,set -- $(cc-info) && echo $2)
cc-option-bit = $(if-success,$(CC) -Werror $(1) -E -x c /dev/null -o /dev/null,$(1))
m32-flag := $(cc-option-bit,-m32)
EOT
	cat >linux/Kconfig <<\EOT &&
source "scripts/Kconfig.include"
config CC_IS_GCC
	def_bool $(success,test "$(cc-name)" = GCC)
config GCC_VERSION
	int
	default $(cc-version) if CC_IS_GCC
	default 0
config CC_HAS_M32
	def_bool $(cc-option,$(m32-flag))
config AS_HAS_X
	def_bool $(as-instr,foo$(comma)bar)
EOT
	test-kconfig --details linux >actual &&
	grep -A1 "^config CC_IS_GCC" actual | grep "default \$(shell," &&
	grep -A1 "^config GCC_VERSION" actual | grep "default \$(shell,set -- \$(shell,./scripts/cc-version.sh \$(CC)) && echo \$2) if CC_IS_GCC" &&
	test $(grep -c "unknown probe" actual) = 4
'

test_expect_success 'lines conf accepts: a macro alone that expands to nothing, a variable name with a blank, ---help---' '
	mkdir -p corners &&
	cat >corners/Kconfig <<-\EOF &&
	$(undefined)
	empty :=
	space := $(empty) $(empty)
	foo$(space)bar = value
	odd$(nowhere)name = value
	config FOO
		bool "foo"
		---help---
		  Help text with config BAR and if words.
		  More of it.
	config BAR
		bool "bar"
	EOF
	test-kconfig corners >out 2>err &&
	test_must_be_empty err &&
	grep "^CONFIG_FOO bool Kconfig:6$" out &&
	grep "^CONFIG_BAR bool Kconfig:11$" out &&
	test $(grep -c "^CONFIG_" out) = 2
'

test_expect_success KCONF 'conf accepts the first two as well (the oracle)' '
	sed "/---help---/,/More of it/d" corners/Kconfig >corners/Kconfig.new &&
	mv corners/Kconfig.new corners/Kconfig &&
	(cd corners && KCONFIG_CONFIG=.config "$KCONF" --alldefconfig Kconfig >../out 2>../err) &&
	test_must_be_empty err &&
	grep "CONFIG_BAR is not set" corners/.config &&
	test-kconfig corners >out 2>err &&
	test_must_be_empty err
'

test_done
