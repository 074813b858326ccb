#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The model against the kernel's own conf, over many Kconfig files.

usage: kconfig-differential.py --conf CONF --model TEST-MODEL [options]

  --conf CONF         the kernel's scripts/kconfig/conf (the oracle)
  --model TEST-MODEL  the suite's t/helper/test-model (the model under test)
  --generated N       N random files from kconfig-gen.py (beside this script)
  --seed S            the first generator seed (1); files use S .. S+N-1
  --no-member-deps    generate for Linux 6.10+ conf (see kconfig-gen.py)
  --symbols K         symbols per generated file (30)
  --kernel-tests DIR  every case under a kernel's scripts/kconfig/tests/
  --rand R            randconfigs per file, seeds 1..R (4)
  --old O             olddefconfigs per file over random assignments (4)
  --keep DIR          copy each file with a rejected configuration there
  -j J                files checked at once (2)
  -v                  say why conf refused a file

For each Kconfig file conf makes its configurations: allnoconfig, allyesconfig,
allmodconfig, alldefconfig, R randconfigs, and O olddefconfigs of random
assignments to every symbol. Each is read back by conf --olddefconfig: what conf
keeps is a configuration kconfig can have, so the model must accept each
(test-model check). Linux 6.1's randconfig can leave a visible choice with no
member chosen, and its olddefconfig can keep a member of a hidden choice set,
which conf changes when it reads the file again: such outputs are counted as
"not kept by conf" and the kept configuration is checked instead. A rejected one is
printed with the smallest set of symbol values that the model cannot have
together (check-config.py on the model's DIMACS form, when picosat is there).
For each olddefconfig, the values the model says the assignments force by
evaluation alone (test-model forced, what the defconfig check trusts without a
solver) must be the ones conf gives: a difference is printed and counted as
rejected. A file that conf itself refuses (a recursive dependency the
generator made, an error case of the kernel's tests) is counted and skipped.

Prints one line per rejected configuration and a closing line
  files F (conf refused E), configurations C (not kept by conf U, distinct kept D):
  accepted A, rejected R; values forced V
Exit status: 0 when every configuration is accepted, 1 when one is rejected,
2 on bad usage.
"""
import concurrent.futures
import hashlib
import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SYM_RE = re.compile(r'^\s*(?:menu)?config\s+(\w+)', re.M)
TYPE_RE = re.compile(r'^\s*(bool|tristate|int|hex|string)\b', re.M)
MODES = ['allnoconfig', 'allyesconfig', 'allmodconfig', 'alldefconfig']


def parse_args(argv):
    opts = {'conf': None, 'model': None, 'generated': 0, 'seed': 1,
            'member_deps': True, 'symbols': 30, 'kernel_tests': [],
            'rand': 4, 'old': 4, 'keep': None, 'jobs': 2, 'verbose': False}
    it = iter(argv)
    for a in it:
        def val():
            v = next(it, None)
            if v is None:
                raise ValueError('%s needs a value' % a)
            return v
        if a == '--conf':
            opts['conf'] = os.path.abspath(val())
        elif a == '--model':
            opts['model'] = os.path.abspath(val())
        elif a == '--generated':
            opts['generated'] = int(val())
        elif a == '--seed':
            opts['seed'] = int(val())
        elif a == '--no-member-deps':
            opts['member_deps'] = False
        elif a == '--symbols':
            opts['symbols'] = int(val())
        elif a == '--kernel-tests':
            opts['kernel_tests'].append(os.path.abspath(val()))
        elif a == '--rand':
            opts['rand'] = int(val())
        elif a == '--old':
            opts['old'] = int(val())
        elif a == '--keep':
            opts['keep'] = os.path.abspath(val())
        elif a == '-v':
            opts['verbose'] = True
        elif a == '-j':
            opts['jobs'] = max(1, int(val()))
        else:
            raise ValueError('unknown option %s' % a)
    if not opts['conf'] or not opts['model']:
        raise ValueError('--conf and --model are needed')
    return opts


def kernel_cases(top):
    """Directories of a scripts/kconfig/tests/ tree that hold a Kconfig."""
    cases = []
    for root, dirs, files in os.walk(top):
        dirs.sort()
        if 'Kconfig' in files:
            cases.append(root)
    return cases


def symbols_of(case):
    """(name, type) of every config entry in the case's Kconfig files."""
    syms = {}
    for root, _, files in os.walk(case):
        for f in files:
            if not f.startswith('Kconfig'):
                continue
            with open(os.path.join(root, f), errors='replace') as fh:
                text = fh.read()
            for m in SYM_RE.finditer(text):
                t = TYPE_RE.search(text, m.end())
                syms.setdefault(m.group(1), t.group(1) if t else 'bool')
    return syms


def given_configs(case):
    """The input configurations a kernel test case brings (config, defconfig)."""
    return sorted(f for f in os.listdir(case)
                  if 'config' in f and not f.startswith(('Kconfig', 'expected'))
                  and '_expected_' not in f and not f.endswith('.py')
                  and os.path.isfile(os.path.join(case, f)))


def random_config(syms, rnd):
    lines = []
    for name, typ in sorted(syms.items()):
        k = rnd.random()
        if k < 0.2:
            continue
        if typ in ('bool', 'tristate'):
            v = rnd.choice(['y', 'n', 'm'] if typ == 'tristate' else ['y', 'n'])
            lines.append('# CONFIG_%s is not set' % name if v == 'n'
                         else 'CONFIG_%s=%s' % (name, v))
        elif typ == 'int':
            lines.append('CONFIG_%s=%d' % (name, rnd.randint(-2, 14)))
        elif typ == 'hex':
            lines.append('CONFIG_%s=0x%x' % (name, rnd.randint(0, 64)))
        else:
            lines.append('CONFIG_%s="r%d"' % (name, rnd.randint(0, 3)))
    return '\n'.join(lines) + '\n'


def run_conf(opts, case, work, name, args, env_extra, stdin_cfg=None):
    """conf's configuration, or None when conf fails."""
    out = os.path.join(work, name)
    env = dict(os.environ, srctree=case, KCONFIG_CONFIG=out,
               KCONFIG_DEFCONFIG_LIST='', **env_extra)
    env.pop('KCONFIG_ALLCONFIG', None)
    if stdin_cfg is not None:
        with open(out, 'w') as f:
            f.write(stdin_cfg)
    r = subprocess.run([opts['conf']] + args + ['Kconfig'], cwd=work, env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=60)
    if r.returncode != 0 or not os.path.exists(out):
        return None, r.stderr.decode(errors='replace')
    return out, ''


def check_forced(opts, case, work, name, cfg, out, forced):
    """The values the model says the assignments force (test-model forced)
    against conf's olddefconfig of them: forced[0] counts them, forced[1]
    gets (name, why) for each conf contradicts."""
    given = os.path.join(work, name + '.in')
    with open(given, 'w') as f:
        f.write(cfg)
    r = subprocess.run([opts['model'], case, 'forced', given, out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    text = r.stdout.decode(errors='replace')
    m = re.search(r'^forced (\d+), otherwise (\d+)$', text, re.M)
    if r.returncode not in (0, 1) or not m:
        forced[1].append((name, 'test-model forced failed: %s'
                          % r.stderr.decode(errors='replace').strip()[:300]))
        return
    forced[0] += int(m.group(1))
    for line in re.findall(r'^(\S+: forced .*)$', text, re.M):
        forced[1].append((name, line))


def config_body(path):
    """The assignments of a .config, without its comment header."""
    with open(path, 'rb') as f:
        return b''.join(l for l in f if not l.startswith(b'#') or b'is not set' in l)


def minimal_sets(opts, case, work, rejected):
    """check-config.py's minimal explanations, by configuration path."""
    if not shutil.which('picosat'):
        return {}
    cnf = os.path.join(work, 'model.cnf')
    with open(cnf, 'w') as f:
        subprocess.run([opts['model'], case, 'dimacs'], stdout=f,
                       stderr=subprocess.DEVNULL)
    r = subprocess.run([sys.executable, os.path.join(HERE, 'check-config.py'), cnf]
                       + rejected, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    why = {}
    for line in r.stdout.decode(errors='replace').splitlines():
        m = re.match(r'REJECTED (\S+): (.*)$', line)
        if m:
            why[m.group(1)] = m.group(2)
    return why


def check_case(opts, label, case):
    """(label, refused-reason or None, [kept configs], [(config, why)],
    (configurations conf did not keep, configurations made))."""
    work = tempfile.mkdtemp(prefix='kdiff-')
    try:
        configs = []
        runs = [(m, ['--' + m], {}, None) for m in MODES]
        runs += [('rand%d' % s, ['--randconfig'], {'KCONFIG_SEED': hex(s)}, None)
                 for s in range(1, opts['rand'] + 1)]
        syms = symbols_of(case)
        rnd = random.Random(label)
        runs += [('old%d' % i, ['--olddefconfig'], {}, random_config(syms, rnd))
                 for i in range(1, opts['old'] + 1)]
        runs += [('given-' + f, ['--olddefconfig'], {}, open(os.path.join(case, f)).read())
                 for f in given_configs(case)]
        unstable = 0
        forced = [0, []]
        for name, args, env, cfg in runs:
            out, err = run_conf(opts, case, work, name, args, env, cfg)
            if out is None:
                first = next((l for l in err.splitlines() if 'rror' in l), err.strip()[:200])
                return label, '%s: %s' % (name, first), [], [], (0, 0, 0)
            if cfg is not None:
                check_forced(opts, case, work, name, cfg, out, forced)
            # What conf keeps: its output read back (--olddefconfig). 6.1's
            # randconfig may leave a visible choice empty, and even its
            # olddefconfig may keep a member of a hidden choice, which conf
            # changes when it reads the file again: the kept one is checked.
            kept, err = run_conf(opts, case, work, name + '.kept', ['--olddefconfig'],
                                 {}, config_body(out).decode(errors='replace'))
            if kept is None:
                return label, '%s: olddefconfig: %s' % (name, err.strip()[:200]), [], [], (0, 0, 0)
            if config_body(kept) != config_body(out):
                unstable += 1
            configs.append(kept)
        made = len(configs)
        distinct = {}
        for c in configs:
            distinct.setdefault(hashlib.sha1(config_body(c)).hexdigest(), c)
        paths = sorted(distinct.values())
        r = subprocess.run([opts['model'], case, 'check'] + paths,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        text = r.stdout.decode(errors='replace')
        rejected = re.findall(r'^(\S+): rejected$', text, re.M)
        if r.returncode not in (0, 1) or (r.returncode == 1 and not rejected):
            return label, None, configs, [(case, 'test-model failed: %s'
                                           % r.stderr.decode(errors='replace').strip()[:300])], (unstable, made, 0)
        bad = list(forced[1])
        if rejected:
            why = minimal_sets(opts, case, work, rejected)
            for p in rejected:
                bad.append((os.path.basename(p), why.get(p, 'rejected')))
            if opts['keep']:
                dest = os.path.join(opts['keep'], label.replace('/', '_'))
                shutil.rmtree(dest, ignore_errors=True)
                shutil.copytree(case, dest)
                for p in rejected:
                    shutil.copy(p, os.path.join(dest, os.path.basename(p) + '.config'))
        return label, None, paths, bad, (unstable, made, forced[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    try:
        opts = parse_args(argv[1:])
    except (ValueError, StopIteration) as e:
        print('kconfig-differential: %s' % e, file=sys.stderr)
        print(__doc__, file=sys.stderr)
        return 2
    start = time.time()
    gen_dir = tempfile.mkdtemp(prefix='kdiff-gen-')
    cases = []
    for top in opts['kernel_tests']:
        for c in kernel_cases(top):
            cases.append((os.path.relpath(c, os.path.dirname(top)), c))
    spec = importlib.util.spec_from_file_location('kconfig_gen', os.path.join(HERE, 'kconfig-gen.py'))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for s in range(opts['seed'], opts['seed'] + opts['generated']):
        d = os.path.join(gen_dir, 'g%d' % s)
        os.makedirs(d)
        with open(os.path.join(d, 'Kconfig'), 'w') as f:
            f.write(gen.Gen(s, opts['symbols'], opts['member_deps']).run())
        cases.append(('seed %d' % s, d))
    files = refused = total = distinct = rejected = unstable = forced = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(opts['jobs']) as pool:
            for label, refusal, paths, bad, moved in pool.map(lambda c: check_case(opts, *c), cases):
                files += 1
                if refusal:
                    refused += 1
                    if opts['verbose']:
                        print('refused %s: %s' % (label, refusal), flush=True)
                    continue
                unstable += moved[0]
                total += moved[1]
                forced += moved[2]
                distinct += len(paths)
                for name, why in bad:
                    rejected += 1
                    print('REJECTED %s %s: %s' % (label, name, why), flush=True)
    finally:
        shutil.rmtree(gen_dir, ignore_errors=True)
    print('files %d (conf refused %d), configurations %d (not kept by conf %d, '
          'distinct kept %d): accepted %d, rejected %d; values forced %d (%.1f s)'
          % (files, refused, total, unstable, distinct, distinct - rejected, rejected,
             forced, time.time() - start))
    return 1 if rejected else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
