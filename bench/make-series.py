#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Makes a series of small, typical commits in the bench repository.

    bench/make-series.py <git-dir> <base> <target> <branch> <file>...

For each file, in order, one commit on top of the previous one (the first on
<base>) that applies one hunk of `git diff <base> <target> -- <file>`: the
first hunk that adds or removes a preprocessor conditional (#if, #ifdef,
#ifndef, #elif, #else, #endif), else the first hunk. Build files are not
touched, so the whole series shares <base>'s Kconfig model, as most commits
of a real history do. The commits are made in the object store with a
private index; nothing is checked out. Prints the branch's new tip.
"""
import os
import re
import subprocess
import sys
import tempfile

COND = re.compile(r'^[+-]\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b')


def git(gitdir, *args, env=None, data=None):
    return subprocess.run(['git', '--git-dir', gitdir, *args], check=True,
                          input=data, stdout=subprocess.PIPE, env=env).stdout


def one_hunk(diff):
    """The file header and the chosen hunk of a one-file diff, or None."""
    lines = diff.decode('utf-8', 'surrogateescape').splitlines(keepends=True)
    starts = [i for i, l in enumerate(lines) if l.startswith('@@')]
    if not starts:
        return None
    header = lines[:starts[0]]
    hunks = [lines[s:e] for s, e in zip(starts, starts[1:] + [len(lines)])]
    chosen = next((h for h in hunks if any(COND.match(l) for l in h[1:])), hunks[0])
    return ''.join(header + chosen).encode('utf-8', 'surrogateescape')


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    gitdir, base, target, branch, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp, 'index'),
                   GIT_AUTHOR_NAME='bench', GIT_AUTHOR_EMAIL='bench@example.org',
                   GIT_COMMITTER_NAME='bench', GIT_COMMITTER_EMAIL='bench@example.org',
                   GIT_AUTHOR_DATE='2026-01-01T00:00:00Z', GIT_COMMITTER_DATE='2026-01-01T00:00:00Z')
        tip = git(gitdir, 'rev-parse', base + '^{commit}').decode().strip()
        git(gitdir, 'read-tree', tip, env=env)
        for path in files:
            patch = one_hunk(git(gitdir, 'diff', '--no-color', base, target, '--', path))
            if patch is None:
                print(f'make-series: {path}: no change between {base} and {target}', file=sys.stderr)
                continue
            git(gitdir, 'apply', '--cached', '--recount', '-', env=env, data=patch)
            tree = git(gitdir, 'write-tree', env=env).decode().strip()
            tip = git(gitdir, 'commit-tree', tree, '-p', tip, '-m',
                      f'{path}: one hunk of {base}..{target}', env=env).decode().strip()
        git(gitdir, 'update-ref', 'refs/heads/' + branch, tip)
    print(tip)


if __name__ == '__main__':
    main()
