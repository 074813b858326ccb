#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summaries of `git undertaker --format=json` output, and a comparison with the
kernel's scripts/checkkconfigsymbols.py.

usage:
  defects.py count JSONL
      defects per kind, cause and scope (and status), from JSON Lines: one object
      per commit with `commit` and `defects` (each with path, line, kind, cause,
      scope, arches, directive, symbols, status), as issue 4 specifies.
  defects.py list JSONL
      every defect on a line of its own, sorted: path, line, block, kind, cause,
      scope, architectures, symbols, undefined names and directive; two runs that print the same
      lines found the same defects (bench/census.sh diffs them).
  defects.py compare JSONL CHECKKCONFIGSYMBOLS_OUTPUT TREE [--exclude-prefix P]...
      the undefined CONFIG symbols named in #if/#ifdef/#ifndef/#elif lines of .c/.h/.S
      files, as checkkconfigsymbols.py reports them (its output names symbols and
      referencing files; the lines are found in TREE), against our `undefined`
      defects (and the symbols of blocks whose cause is `missing`).
"""
import collections
import json
import re
import sys

SOURCE_EXT = ('.c', '.h', '.S')
# A conditional directive, with spaces allowed around '#'.
COND_RE = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef)\b(.*)$')
CONFIG_RE = re.compile(r'\bCONFIG_(\w*[A-Za-z0-9])')
ANSI_RE = re.compile(r'\x1b\[[0-9;]*m')


def read_jsonl(path):
    commits = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                commits.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit('defects.py: %s:%d: not JSON: %s' % (path, n, e))
    return commits


def count(path):
    commits = read_jsonl(path)
    by_class = collections.Counter()
    by_status = collections.Counter()
    total = 0
    for c in commits:
        for d in c.get('defects', []):
            total += 1
            scope = d.get('scope', '?')
            by_class[(d.get('kind', '?'), d.get('cause', '-'), scope)] += 1
            by_status[d.get('status', '?')] += 1
    print('%d commits, %d defects' % (len(commits), total))
    for (kind, cause, scope), n in sorted(by_class.items(), key=lambda kv: (-kv[1], kv[0])):
        print('  %-9s %-8s %-7s %7d' % (kind, cause, scope, n))
    if by_status:
        print('  by status: ' + ', '.join('%s %d' % kv for kv in sorted(by_status.items())))
    return 0


def strip_config(sym):
    return sym[len('CONFIG_'):] if sym.startswith('CONFIG_') else sym


def theirs(ckks_path):
    """symbol -> set of files, from checkkconfigsymbols.py's output."""
    result = {}
    current = None
    with open(ckks_path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = ANSI_RE.sub('', line).rstrip('\n')
            if line.startswith('Referencing files:'):
                if current:
                    files = [x.strip() for x in line.split(':', 1)[1].split(',')]
                    result[current] = set(x for x in files if x)
            elif line.startswith('Similar symbols:') or line.startswith('Commits changing'):
                continue
            elif re.match(r'^[A-Za-z0-9_]+$', line):
                current = line
    return result


def directive_lines(path):
    """The conditional directive lines of a file, backslash-newlines joined."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError:
        return []
    text = text.replace('\\\n', ' ')
    return [m.group(0) for m in map(COND_RE.match, text.split('\n')) if m]


def their_if_pairs(ckks, tree, exclude):
    pairs = set()
    for sym, files in ckks.items():
        for path in files:
            if not path.endswith(SOURCE_EXT) or any(path.startswith(p) for p in exclude):
                continue
            for line in directive_lines('%s/%s' % (tree, path)):
                if sym in CONFIG_RE.findall(line):
                    pairs.add((sym, path))
                    break
    return pairs


def our_pairs(commits, exclude):
    undefined, missing = set(), set()
    for c in commits:
        for d in c.get('defects', []):
            path = d.get('path', '')
            if any(path.startswith(p) for p in exclude):
                continue
            syms = [strip_config(s) for s in d.get('symbols', [])]
            if d.get('kind') == 'undefined':
                undefined.update((s, path) for s in syms)
            elif d.get('cause') == 'missing':
                missing.update((s, path) for s in syms)
    return undefined, missing


def compare(args):
    exclude = []
    rest = []
    i = 0
    while i < len(args):
        if args[i] == '--exclude-prefix':
            exclude.append(args[i + 1])
            i += 2
        else:
            rest.append(args[i])
            i += 1
    if len(rest) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    jsonl, ckks_out, tree = rest
    ckks = theirs(ckks_out)
    want = their_if_pairs(ckks, tree, exclude)
    undefined, missing = our_pairs(read_jsonl(jsonl), exclude)
    both = want & undefined
    only_theirs = sorted(want - undefined)
    only_ours = sorted(undefined - want)
    print('checkkconfigsymbols.py: %d undefined symbols in all, %d (symbol, file) pairs '
          'in #if lines of .c/.h/.S files (%d symbols)'
          % (len(ckks), len(want), len(set(s for s, _ in want))))
    print('ours: %d (symbol, file) pairs of kind undefined (%d symbols); %d more named by '
          'blocks whose cause is missing' % (len(undefined), len(set(s for s, _ in undefined)),
                                            len(missing - undefined)))
    print('agree on %d; only checkkconfigsymbols.py %d; only ours %d'
          % (len(both), len(only_theirs), len(only_ours)))
    for title, pairs in (('only checkkconfigsymbols.py', only_theirs), ('only ours', only_ours)):
        for sym, path in pairs[:15]:
            print('  %s: CONFIG_%s in %s' % (title, sym, path))
        if len(pairs) > 15:
            print('  %s: ... %d more' % (title, len(pairs) - 15))
    return 0


def listing(path):
    lines = []
    for c in read_jsonl(path):
        for d in c.get('defects', []):
            lines.append('%s:%s: B%s %s %s %s [%s] {%s} (%s) %s' % (
                d.get('path'), d.get('line'), d.get('block'), d.get('kind'),
                d.get('cause', '-'), d.get('scope', '?'), ','.join(d.get('arches', [])),
                ','.join(d.get('symbols', [])), ','.join(d.get('missing', [])),
                d.get('directive', '')))
    for line in sorted(lines):
        print(line)
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == 'list':
        return listing(argv[2])
    if len(argv) >= 3 and argv[1] == 'count':
        return count(argv[2])
    if len(argv) >= 2 and argv[1] == 'compare':
        return compare(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
