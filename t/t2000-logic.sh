#!/bin/sh
test_description='formulas, Tseitin CNF and the picosat wrapper'
. ./test-lib.sh

test_expect_success 'folding laws and random formulas agree with their truth tables' '
	test-logic selftest >out &&
	grep "assignments checked, ok" out
'

test_expect_success 'the DIMACS export is read by picosat' '
	test-logic dimacs >base.cnf &&
	grep "^p cnf [0-9]* 5$" base.cnf &&
	test_expect_code 10 picosat base.cnf >res &&
	grep "^s SATISFIABLE" res &&
	awk "/^p cnf/ { \$4 += 2 } { print } END { print \"-1 0\"; print \"-2 0\" }" base.cnf >unsat.cnf &&
	test_expect_code 20 picosat unsat.cnf >res &&
	grep "^s UNSATISFIABLE" res
'

test_expect_success 'the memo map (u64map): growth, replace, absent keys, clear' '
	test-logic u64map >out &&
	grep "^u64map ok$" out
'

test_expect_success 'rewrites: variables fixed to constants (memoised), free ones chosen greedily' '
	test-logic rewrite >out &&
	grep "^rewrite ok$" out
'

test_expect_success 'propagation beside the solver: its refutations, completions and answers at once are the solver'"'"'s' '
	test-logic units >out &&
	grep "^units ok$" out
'

test_expect_success 'witnesses: facts on new variables keep answers; saved and loaded' '
	test-logic witnesses "$PWD" >out &&
	grep "^witnesses ok$" out &&
	test -f witnesses/one
'

test_expect_success 'a model found outside the solver answers as a witness' '
	test-logic kept-model >out &&
	grep "^kept-model ok$" out
'

test_expect_success 'the sample pool: word by word, past one word, off, merged on save' '
	test-logic pool "$PWD" >out &&
	grep "^pool ok$" out &&
	test -f pool/one
'

test_done
