#!/bin/sh
test_description='the model as DIMACS CNF, for any SAT solver'
. ./test-lib.sh

test_expect_success 'a tree' '
	write_file tree/Kconfig <<-\EOF
	config MODULES
		bool "modules"
		modules
	config A
		bool "a"
	config S
		tristate "s"
		select T
	config T
		tristate
		depends on A
	config N
		int "n"
		depends on A
	choice
		prompt "pick one"
	config C1
		bool "c1"
	config C2
		bool "c2"
	endchoice
	EOF
'

test_expect_success 'every symbol has its comment lines, then the header' '
	test-model tree dimacs >model.cnf &&
	for s in MODULES A S S_MODULE T T_MODULE N C1 C2; do
		grep "^c CONFIG_$s [1-9][0-9]*\$" model.cnf || return 1
	done &&
	! grep "^c CONFIG_A_MODULE" model.cnf &&
	test $(grep -c "^p cnf [0-9]* [0-9]*\$" model.cnf) = 1
'

# with_units <file> <literal>...: the model plus unit clauses, header fixed
with_units () {
	out=$1 &&
	shift &&
	awk -v n=$# "/^p cnf/ { \$4 += n } { print }" model.cnf >"$out" &&
	for lit in "$@"; do
		echo "$lit 0" >>"$out"
	done
}

var () {
	sed -n "s/^c CONFIG_$1 //p" model.cnf
}

test_expect_success 'picosat finds the model satisfiable' '
	test_expect_code 10 picosat model.cnf >res &&
	grep "^s SATISFIABLE" res
'

test_expect_success 'and a possible configuration too (select overrides depends on)' '
	with_units possible.cnf $(var S) -$(var A) &&
	test_expect_code 10 picosat possible.cnf >res
'

test_expect_success 'units for two members of a choice make it unsatisfiable' '
	with_units two.cnf $(var C1) $(var C2) &&
	test_expect_code 20 picosat two.cnf >res &&
	grep "^s UNSATISFIABLE" res
'

test_expect_success 'so do units for a selected symbol off' '
	with_units unselected.cnf $(var S) -$(var T) -$(var T_MODULE) &&
	test_expect_code 20 picosat unselected.cnf >res
'

test_expect_success 'and for a module without MODULES' '
	with_units nomod.cnf -$(var MODULES) $(var S_MODULE) &&
	test_expect_code 20 picosat nomod.cnf >res
'

test_done
