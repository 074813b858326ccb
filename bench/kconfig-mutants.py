#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Both ways at once: the model against the kernel's own conf on one-symbol changes.

usage: kconfig-mutants.py [-n N] MODEL.cnf CONF_DIR CONFIG

CONFIG is a .config the kernel made (a defconfig). N symbols of it, spread evenly
over the bool/tristate symbols of the model (in the order of the .config), are
changed one at a time (n -> y; y -> m for a tristate, else -> n), and each changed
file goes through the kernel's own `scripts/kconfig/conf --olddefconfig Kconfig`,
run in CONF_DIR (a kbuild output directory; the kconfig environment, srctree, ARCH,
SRCARCH, CC..., comes from the caller). Symbols a toolchain probe sets are left
alone (the model leaves them free on purpose). A change that conf keeps as it is
is a configuration kconfig can have: the model must accept it. A change that conf
undoes or spreads is one kconfig cannot have: the model should
reject it. check-config.py (beside this script) is the model's side.

Prints one line per disagreement and a closing line
  mutants N: conf kept K (model accepted A), conf changed C (model rejected R)
Exit status: 0 when the model agrees with conf on every one, 1 when it accepts one
conf changed (imprecise), 3 when it rejects one conf kept (unsound), 2 on bad input
(including an unchanged CONFIG that conf does not keep: then conf's environment
is not the one that made it, and nothing is compared).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAP_RE = re.compile(r'^c\s+(CONFIG_\w+)\s+(-?\d+)\s*$')
SET_RE = re.compile(r'^(CONFIG_\w+)=(.*)$')
UNSET_RE = re.compile(r'^# (CONFIG_\w+) is not set$')


def model_symbols(path):
    """bool/tristate symbols of the model: name -> is_tristate."""
    names = set()
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if line.startswith('c'):
                m = MAP_RE.match(line.rstrip('\n'))
                if m:
                    names.add(m.group(1))
    syms = {}
    for n in names:
        if n.endswith('_MODULE') and n[:-len('_MODULE')] in names:
            syms[n[:-len('_MODULE')]] = True
        elif n not in syms:
            syms[n] = False
    return syms


def probe_symbols(srctree):
    """Symbols whose definition calls a macro ($(as-instr,...), $(cc-option,...)...):
    the model leaves what a toolchain probe decides free, by design, while conf
    runs the probe on this host; a change of one of them is no test of the model."""
    probes = set()
    conf_re = re.compile(r'^\s*(?:menu)?config\s+(\w+)')
    for root, dirs, files in os.walk(srctree):
        dirs[:] = [d for d in dirs if not d.startswith('.') and d not in ('Documentation', 'tools')]
        for fn in files:
            if not fn.startswith('Kconfig'):
                continue
            sym = None
            for line in read_lines(os.path.join(root, fn)):
                m = conf_re.match(line)
                if m:
                    sym = 'CONFIG_' + m.group(1)
                elif line and not line[0].isspace():
                    sym = None
                elif sym and '$(' in line:
                    probes.add(sym)
    return probes


def read_lines(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return [line.rstrip('\n') for line in f]


def values_of(lines):
    """The symbols that have a value: y or m for bool/tristate ones (n is left out:
    conf omits invisible n symbols), only "set" for int, hex and string ones (the
    model has whether they have a value, not which; some come from the environment,
    CC_VERSION_TEXT)."""
    values = {}
    for line in lines:
        m = SET_RE.match(line)
        if m and m.group(2) != 'n':
            values[m.group(1)] = m.group(2) if m.group(2) in ('y', 'm') else 'set'
    return values


def run_conf(conf_dir, lines, tmp, name):
    """conf --olddefconfig over these lines: the values it writes back."""
    path = os.path.join(tmp, name)
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    env = dict(os.environ, KCONFIG_CONFIG=path)
    r = subprocess.run([os.path.join(conf_dir, 'scripts/kconfig/conf'), '--olddefconfig', 'Kconfig'],
                       cwd=conf_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit('kconfig-mutants: conf failed on %s: %s' % (name, r.stderr.strip()[:300]))
    return values_of(read_lines(path))


def mutate(lines, i, sym, tristate):
    """The lines with sym changed at line i; the new line."""
    line = lines[i]
    if line.startswith('# '):
        new = '%s=y' % sym
    elif line.endswith('=y') and tristate:
        new = '%s=m' % sym
    else:
        new = '# %s is not set' % sym
    out = list(lines)
    out[i] = new
    return out, new


def main(argv):
    n = 20
    args = []
    it = iter(argv[1:])
    for a in it:
        if a == '-n':
            n = int(next(it))
        elif a.startswith('-'):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            args.append(a)
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    model, conf_dir, config = args
    syms = model_symbols(model)
    lines = read_lines(config)
    probes = probe_symbols(os.environ['srctree']) if 'srctree' in os.environ else set()
    # Candidates: bool/tristate lines of the .config that the model knows.
    cand = []
    for i, line in enumerate(lines):
        m = SET_RE.match(line)
        sym = m.group(1) if m and m.group(2) in ('y', 'm') else None
        if not sym:
            u = UNSET_RE.match(line)
            sym = u.group(1) if u else None
        if sym in syms and sym not in probes:
            cand.append((i, sym))
    # conf takes a visible symbol missing from the file as new and gives it its
    # default: every symbol of the model is written, n explicitly, so that what conf
    # keeps is exactly the file (an explicit n of an invisible symbol is recomputed).
    present = {m.group(1) for m in map(SET_RE.match, lines) if m}
    present |= {m.group(1) for m in map(UNSET_RE.match, lines) if m}
    lines = lines + ['# %s is not set' % x for x in sorted(syms) if x not in present]
    if not cand:
        print('kconfig-mutants: no bool/tristate symbol of the model in %s' % config, file=sys.stderr)
        return 2
    step = max(1, len(cand) // n)
    picked = cand[step // 2::step][:n]
    checker = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check-config.py')
    tmp = tempfile.mkdtemp(prefix='kconfig-mutants-')
    try:
        base = values_of(lines)
        again = run_conf(conf_dir, lines, tmp, 'unchanged')
        if again != base:
            diff = sorted(set(base.items()) ^ set(again.items()))
            print('kconfig-mutants: conf does not keep %s as it is (%s): not the environment that made it'
                  % (config, ' '.join('%s=%s' % d for d in diff[:5])), file=sys.stderr)
            return 2
        kept, changed, what = [], [], {}
        for k, (i, sym) in enumerate(picked):
            mlines, new = mutate(lines, i, sym, syms[sym])
            name = 'mutant-%d' % k
            after = run_conf(conf_dir, mlines, tmp, name + '.conf')
            with open(os.path.join(tmp, name), 'w') as f:
                f.write('\n'.join(mlines) + '\n')
            what[name] = new
            (kept if after == values_of(mlines) else changed).append(name)
        r = subprocess.run([sys.executable, checker, '-q', '--no-minimise', model]
                           + [os.path.join(tmp, x) for x in kept + changed],
                           stdout=subprocess.PIPE, text=True)
        rejected = {os.path.basename(line.split()[1].rstrip(':'))
                    for line in r.stdout.splitlines() if line.startswith('REJECTED ')}
        status = 0
        for name in kept:
            if name in rejected:
                print('UNSOUND: conf keeps "%s", the model rejects it' % what[name])
                status = 3
        for name in changed:
            if name not in rejected:
                print('IMPRECISE: conf changes "%s", the model accepts it' % what[name])
                status = status or 1
        print('mutants %d: conf kept %d (model accepted %d), conf changed %d (model rejected %d)'
              % (len(picked), len(kept), len([x for x in kept if x not in rejected]),
                 len(changed), len([x for x in changed if x in rejected])))
        return status
    finally:
        shutil.rmtree(tmp)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
