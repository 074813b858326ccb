#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a random small Kconfig file, the same one for the same seed.

usage: kconfig-gen.py [--symbols N] [--no-member-deps] SEED DIR

Writes DIR/Kconfig: a tree of N symbols (30 by default) made of the forms where
a model of Kconfig is most easily wrong: bool and tristate symbols with and
without prompts, prompts with `if` conditions, `depends on` chains, defaults
with conditions, `select` and `imply` (with and without `if`) on tristates,
`if` blocks, menus with `visible if` and `depends on`, `menuconfig`, int
symbols with ranges and comparisons, and choices whose members depend on the
member before them, in `depends on` or in the prompt's `if` (kconfig then
moves such a member out of the choice). Linux 6.10 and later reject that last
form as a recursive dependency: --no-member-deps leaves it out for their conf.

Every form is one that the kernel's conf of Linux 6.1 and of 6.12 both accept:
no tristate or optional choices (gone in 6.11), no select of a choice member.
Conditions name only symbols defined earlier and select/imply only symbols
defined later, so no file has a recursive dependency.
"""
import os
import random
import sys


class Gen:
    def __init__(self, seed, nsyms, member_deps=True):
        self.r = random.Random(seed)
        self.member_deps = member_deps
        self.nsyms = nsyms
        self.out = []
        self.defined = []      # (name, type) in order of definition
        self.next_id = 0
        self.depth = 0
        # names reserved for later definition, targets of select/imply
        self.pending = []
        # members of the choice being written: no condition names them but
        # the deliberate `depends on`/`if` of a member on the one before
        self.members = set()

    def name(self):
        self.next_id += 1
        return 'S%d' % self.next_id

    def emit(self, line):
        self.out.append('\t' * self.depth + line if line else '')

    def boolish(self):
        return [n for n, t in self.defined
                if t in ('bool', 'tristate') and n not in self.members]

    def atom(self):
        r = self.r
        syms = self.boolish()
        if not syms:
            return 'y'
        s = r.choice(syms)
        k = r.random()
        if k < 0.55:
            return s
        if k < 0.7:
            return '!' + s
        if k < 0.8:
            return '%s = %s' % (s, r.choice('ymn'))
        if k < 0.9:
            return '%s != n' % s
        ints = [n for n, t in self.defined if t == 'int']
        if ints:
            return '%s %s %d' % (r.choice(ints), r.choice(['<', '>', '<=', '>=', '=']), r.randint(0, 10))
        return s

    def expr(self, size=None):
        r = self.r
        if size is None:
            size = r.choice([1, 1, 1, 2, 2, 3])
        e = self.atom()
        for _ in range(size - 1):
            op = r.choice(['&&', '||'])
            a = self.atom()
            e = '(%s) %s %s' % (e, op, a) if r.random() < 0.3 else '%s %s %s' % (e, op, a)
        return e

    def later_target(self):
        """A name to select or imply: defined later as a plain bool/tristate."""
        n = self.name()
        self.pending.append((n, self.r.choice(['bool', 'tristate', 'tristate'])))
        return n

    def config(self, name=None, typ=None, in_choice=False, prev_member=None):
        r = self.r
        if name is None:
            name = self.name()
            typ = r.choices(['bool', 'tristate', 'int', 'string'], [50, 35, 10, 5])[0]
        prompt = in_choice or r.random() < 0.8
        menu = prompt and not in_choice and typ in ('bool', 'tristate') and r.random() < 0.1
        self.emit('%s %s' % ('menuconfig' if menu else 'config', name))
        self.depth += 1
        if not self.member_deps:
            prev_member = None
        line = '%s' % typ
        if prompt:
            line += ' "%s"' % name.lower()
            if in_choice and prev_member and r.random() < 0.3:
                line += ' if %s' % prev_member
            elif r.random() < 0.2:
                line += ' if ' + self.expr(1)
        self.emit(line)
        if in_choice and prev_member and r.random() < 0.25:
            self.emit('depends on %s' % prev_member)
        if r.random() < 0.4:
            self.emit('depends on ' + self.expr())
        if typ == 'int':
            lo = r.randint(0, 3)
            self.emit('range %d %d' % (lo, lo + r.randint(2, 8)))
            self.emit('default %d' % r.randint(0, 12))
        elif typ == 'string':
            if r.random() < 0.5:
                self.emit('default "v%d"' % r.randint(0, 9))
        elif not in_choice:
            for _ in range(r.choice([0, 0, 1, 1, 2])):
                v = r.choice(['y', 'n', 'm'] if typ == 'tristate' else ['y', 'n'])
                if r.random() < 0.3 and self.boolish():
                    v = r.choice(self.boolish())
                cond = ' if ' + self.expr(1) if r.random() < 0.5 else ''
                self.emit('default %s%s' % (v, cond))
            for _ in range(r.choice([0, 0, 0, 1, 2])):
                kind = 'select' if r.random() < 0.7 else 'imply'
                cond = ' if ' + self.expr(1) if r.random() < 0.3 else ''
                self.emit('%s %s%s' % (kind, self.later_target(), cond))
        else:
            if r.random() < 0.2:
                kind = 'select' if r.random() < 0.7 else 'imply'
                self.emit('%s %s' % (kind, self.later_target()))
        self.depth -= 1
        self.defined.append((name, typ))

    def choice(self):
        r = self.r
        self.emit('choice')
        self.depth += 1
        self.emit('prompt "choice %d"' % self.next_id + (' if ' + self.expr(1) if r.random() < 0.15 else ''))
        if r.random() < 0.3:
            self.emit('depends on ' + self.expr())
        members = [self.name() for _ in range(r.randint(2, 4))]
        if r.random() < 0.4:
            self.emit('default %s' % r.choice(members))
        self.depth -= 1
        prev = None
        self.members = set(members)
        for m in members:
            self.config(m, 'bool', in_choice=True, prev_member=prev)
            prev = m
        self.members = set()
        self.emit('endchoice')
        self.emit('')

    def flush_pending(self):
        while self.pending:
            n, t = self.pending.pop(0)
            self.config(n, t)

    def items(self, budget):
        r = self.r
        while budget > 0 and self.next_id < self.nsyms:
            k = r.random()
            if k < 0.6 or self.depth >= 3:
                self.config()
                budget -= 1
            elif k < 0.75:
                self.choice()
                budget -= 3
            elif k < 0.87:
                self.emit('if ' + self.expr())
                self.depth += 1
                self.items(r.randint(1, 4))
                self.depth -= 1
                self.emit('endif')
                budget -= 2
            else:
                line = 'menu "menu %d"' % self.next_id
                self.emit(line)
                self.depth += 1
                if r.random() < 0.5:
                    self.emit('visible if ' + self.expr(1))
                if r.random() < 0.4:
                    self.emit('depends on ' + self.expr(1))
                self.depth -= 1
                self.depth += 1
                self.items(r.randint(1, 4))
                self.depth -= 1
                self.emit('endmenu')
                budget -= 2
            if self.pending and r.random() < 0.3:
                self.flush_pending()

    def run(self):
        self.emit('mainmenu "generated"')
        self.emit('config MODULES')
        self.emit('\tbool "modules"')
        self.emit('\tmodules')
        self.emit('\tdefault y')
        self.defined.append(('MODULES', 'bool'))
        self.items(self.nsyms)
        self.flush_pending()
        return '\n'.join(self.out) + '\n'


def main(argv):
    args = argv[1:]
    nsyms = 30
    member_deps = True
    while args and args[0].startswith('--'):
        if args[0] == '--symbols' and len(args) > 1:
            nsyms = int(args[1])
            args = args[2:]
        elif args[0] == '--no-member-deps':
            member_deps = False
            args = args[1:]
        else:
            break
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    seed, outdir = int(args[0]), args[1]
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'Kconfig'), 'w') as f:
        f.write(Gen(seed, nsyms, member_deps).run())
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
