#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check .config files against a Kconfig model in DIMACS form.

usage: check-config.py [-q] [--no-minimise] MODEL.cnf CONFIG...

MODEL.cnf is what `git undertaker --dump-model=dimacs` prints: CNF whose comment
lines `c CONFIG_FOO <var>` and `c CONFIG_FOO_MODULE <var>` map the symbols to
variables. Each .config becomes one assumption per mapped symbol variable:
  CONFIG_FOO=y       FOO true,  FOO_MODULE false
  CONFIG_FOO=m       FOO false, FOO_MODULE true
  not set / absent   FOO false, FOO_MODULE false
  CONFIG_FOO=<value> FOO true (int, hex, string: the "has a value" variable)
and the `picosat` binary decides whether the model allows it. A rejected
configuration is explained by picosat's failed assumptions, shrunk to a minimal
set by deletion when that set is small.

Prints one line per configuration and a closing `tried N, accepted M`.
Exit status: 0 when all are accepted, 1 when one is rejected, 2 on bad input.
"""
import os
import re
import subprocess
import sys
import tempfile

MAP_RE = re.compile(r'^c\s+(CONFIG_\w+)\s+(-?\d+)\s*$')
SET_RE = re.compile(r'^(CONFIG_\w+)=(.*)$')
UNSET_RE = re.compile(r'^# (CONFIG_\w+) is not set$')
MINIMISE_LIMIT = 40


def read_model_map(path):
    """Symbol name -> variable, from the DIMACS comment lines."""
    names = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            # Comments may come anywhere, so every line is looked at.
            if not line.startswith('c'):
                continue
            m = MAP_RE.match(line)
            if m:
                names[m.group(1)] = int(m.group(2))
    return names


def split_symbols(names):
    """(symbol -> var, symbol -> module var). CONFIG_X_MODULE is X's module
    variable when CONFIG_X is mapped too; otherwise it is a symbol of its own."""
    main, module = {}, {}
    for name, var in names.items():
        if name.endswith('_MODULE') and name[:-len('_MODULE')] in names:
            module[name[:-len('_MODULE')]] = var
        else:
            main[name] = var
    return main, module


def read_config(path):
    """Symbol -> value ('y', 'm', 'n' or the literal text) for one .config."""
    values = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = SET_RE.match(line)
            if m:
                values[m.group(1)] = m.group(2)
                continue
            m = UNSET_RE.match(line)
            if m:
                values[m.group(1)] = 'n'
    return values


def assumptions(main, module, values):
    lits = {}
    for sym, var in main.items():
        v = values.get(sym, 'n')
        lits[var] = v != 'n' and v != 'm'
        if sym in module:
            lits[module[sym]] = v == 'm'
    return [var if on else -var for var, on in lits.items()]


def solve(model, lits):
    """True when satisfiable; else (False, failed assumptions)."""
    with tempfile.NamedTemporaryFile('r', prefix='check-config-', delete=False) as fa:
        fa_path = fa.name
    try:
        args = ['picosat', '-n']
        for lit in lits:
            args += ['-a', str(lit)]
        args += ['-A', fa_path, model]
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode == 10:
            return True, []
        if r.returncode != 20:
            sys.exit('check-config: picosat failed (%d): %s' % (r.returncode, r.stderr.strip()))
        with open(fa_path) as f:
            failed = [int(x) for x in f.read().split() if x != '0']
        return False, failed
    finally:
        os.unlink(fa_path)


def minimise(model, failed):
    """Deletion-based: drop each assumption whose removal keeps the set unsatisfiable."""
    core = list(failed)
    i = 0
    while i < len(core):
        trial = core[:i] + core[i + 1:]
        sat, again = solve(model, trial)
        if not sat:
            core = [lit for lit in trial if lit in set(again)] or trial
        else:
            i += 1
    return core


def describe(lit, by_var):
    name, is_module = by_var[abs(lit)]
    if is_module:
        return '%s=%s' % (name, 'm' if lit > 0 else '!m')
    return '%s=%s' % (name, 'y/set' if lit > 0 else 'n')


def main(argv):
    quiet = False
    do_minimise = True
    args = []
    for a in argv[1:]:
        if a == '-q':
            quiet = True
        elif a == '--no-minimise':
            do_minimise = False
        elif a.startswith('-'):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            args.append(a)
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    model, configs = args[0], args[1:]
    names = read_model_map(model)
    if not names:
        print('check-config: %s maps no CONFIG_ symbol' % model, file=sys.stderr)
        return 2
    main_vars, module_vars = split_symbols(names)
    by_var = {}
    for sym, var in main_vars.items():
        by_var[var] = (sym, False)
    for sym, var in module_vars.items():
        by_var[var] = (sym, True)

    tried = accepted = 0
    for path in configs:
        values = read_config(path)
        unknown = sorted(s for s in values if s not in main_vars)
        bad_m = sorted(s for s, v in values.items() if v == 'm' and s in main_vars and s not in module_vars)
        lits = assumptions(main_vars, module_vars, values)
        tried += 1
        sat, failed = solve(model, lits)
        note = ''
        if unknown:
            note = ' (%d symbols not in the model, e.g. %s)' % (len(unknown), ' '.join(unknown[:5]))
        if bad_m:
            note += ' (=m on symbols the model has as bool: %s)' % ' '.join(bad_m[:5])
        if sat:
            accepted += 1
            if not quiet:
                print('accepted %s%s' % (path, note))
            continue
        if do_minimise and len(failed) <= MINIMISE_LIMIT:
            failed = minimise(model, failed)
            what = 'minimal failing set'
        else:
            what = 'failed assumptions'
        shown = ' '.join(describe(lit, by_var) for lit in failed[:MINIMISE_LIMIT])
        more = ' ...' if len(failed) > MINIMISE_LIMIT else ''
        print('REJECTED %s: %s (%d): %s%s%s' % (path, what, len(failed), shown, more, note))
    print('tried %d, accepted %d' % (tried, accepted))
    return 0 if tried == accepted else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
