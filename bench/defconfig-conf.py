#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Our `dropped` verdicts on a Linux tree's defconfigs against the kernel's own conf.

usage: defconfig-conf.py --src TREE --conf CONF --version V --report UNDERTAKER.txt
                         [--work DIR] [-j N]

For every arch/*/configs/**/*defconfig of the extracted TREE, runs
`conf --defconfig=<file> Kconfig` as `make <x>_defconfig` would (srctree,
ARCH/SRCARCH; UML's SUBARCH and HEADER_ARCH; the host gcc answers the
compiler probes) and lists each line whose value the .config written does
not keep. Then compares that with the `dropped` lines of UNDERTAKER.txt
(`git undertaker --all` of the same version, text): lines both drop, lines
only we drop (wrong verdicts), lines only conf drops (missed; our model
leaves compiler probes and comparisons free, so some are expected). Lines
we report `undefined` are left out of conf's side. Prints the three counts
and the lines of the last two kinds.
"""
import argparse, concurrent.futures as cf, glob, os, re, subprocess, sys

SET = re.compile(r'^(CONFIG_[A-Za-z0-9_]+)=(.*)$')
UNSET = re.compile(r'^# (CONFIG_[A-Za-z0-9_]+) is not set$')


def values(path):
    v = {}
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            m = SET.match(line)
            if m:
                yield n, m.group(1), m.group(2)
                continue
            m = UNSET.match(line)
            if m:
                yield n, m.group(1), 'n'


def conf_drops(args, path):
    rel = os.path.relpath(path, args.src)
    arch, base = rel.split('/')[1], os.path.basename(path)
    env = dict(os.environ, srctree=args.src, SRCARCH=arch, ARCH=arch, KERNELVERSION=args.version,
               CC='gcc', LD='ld', HOSTCC='gcc', HOSTCXX='g++')
    if arch == 'x86':
        env['ARCH'] = 'i386' if base.startswith('i386') else 'x86_64'
    elif arch == 'sparc':
        env['ARCH'] = 'sparc64' if base.startswith('sparc64') else 'sparc32'
    elif arch == 'um':
        env.update(HEADER_ARCH='x86', SUBARCH='i386' if base.startswith('i386') else 'x86_64')
    cfg = os.path.join(args.work, rel.replace('/', '_') + '.config')
    env['KCONFIG_CONFIG'] = cfg
    r = subprocess.run([args.conf, '-s', '--defconfig=' + path, 'Kconfig'], cwd=args.src,
                       env=env, capture_output=True, text=True)
    if r.returncode:
        return rel, None, r.stderr.strip().splitlines()[:1]
    got = {sym: val for _, sym, val in values(cfg)}
    out = []
    for n, sym, want in values(path):
        have = got.get(sym, 'n')
        if have != want:
            out.append((rel, n, f'{sym} {want} -> {have}'))
    return rel, out, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--src', required=True)
    ap.add_argument('--conf', required=True)
    ap.add_argument('--version', required=True)
    ap.add_argument('--report', required=True)
    ap.add_argument('--work', default='defconfig-conf.work')
    ap.add_argument('-j', type=int, default=2)
    args = ap.parse_args()
    args.src = os.path.abspath(args.src)
    os.makedirs(args.work, exist_ok=True)
    paths = sorted(p for p in glob.glob(args.src + '/arch/*/configs/**/*', recursive=True)
                   if os.path.isfile(p) and os.path.basename(p).endswith('defconfig'))
    conf = {}
    failed = 0
    with cf.ThreadPoolExecutor(args.j) as ex:
        for rel, out, err in ex.map(lambda p: conf_drops(args, p), paths):
            if out is None:
                failed += 1
                print(f'{rel}: conf failed: {err}', file=sys.stderr)
                continue
            for r, n, text in out:
                conf[(r, n)] = f'{r}:{n}: {text}'
    ours, undefined = {}, set()
    pat = re.compile(r'^(arch/\S+?):(\d+): (dropped|undefined) ')
    with open(args.report) as f:
        for line in f:
            m = pat.match(line)
            if not m:
                continue
            key = (m.group(1), int(m.group(2)))
            (ours.__setitem__(key, line.rstrip()) if m.group(3) == 'dropped' else undefined.add(key))
    conf = {k: v for k, v in conf.items() if k not in undefined}
    both = set(ours) & set(conf)
    print(f'{len(paths)} defconfigs ({failed} conf could not read); dropped by both: {len(both)}, '
          f'only by undertaker: {len(set(ours) - both)}, only by conf: {len(set(conf) - both)}')
    for k in sorted(set(ours) - both):
        print('only undertaker:', ours[k])
    for k in sorted(set(conf) - both):
        print('only conf:', conf[k])


if __name__ == '__main__':
    main()
