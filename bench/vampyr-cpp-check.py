#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks one configuration of `git vampyr --expand --format=json` with the
kernel's own preprocessor (bench/vampyr-cpp.sh runs it).

usage: vampyr-cpp-check.py <json> <config-name> <srctree> <objtree> <source-copy>

<objtree> is an O= build directory on <srctree> in which `make <file>.i` has
just run with the configuration's expanded .config; <source-copy> is the
file as the repository has it at the commit (it must equal <srctree>'s).
The gcc -E command kbuild used (from <dir>/.<file>.i.cmd) runs again on a
copy of the file with a marker line after the opening directive of each
block the configuration claims; a claim that survived expansion must leave
its marker in the output, unless vampyr said that its condition also names
what Kconfig does not set ("outside": a header's macro), and a claim
expansion lost must not, and must carry a reason. Prints one line per block and a summary; exits 1 on a mismatch."""
import json, os, re, shlex, subprocess, sys, tempfile

report_path, name, srctree, objtree, copy = sys.argv[1:6]
report = json.load(open(report_path))
config = [c for c in report["configs"] if c["name"] == name][0]
paths = {b["path"] for b in config["covers"]}
assert len(paths) == 1, paths
path = paths.pop()
text = open(copy, encoding="utf-8", errors="surrogateescape").read()
if text != open(os.path.join(srctree, path), encoding="utf-8", errors="surrogateescape").read():
    sys.exit("%s: the source tree's file is not the commit's" % path)

# The command kbuild ran for <file>.i.
d, base = os.path.split(path)
cmdfile = os.path.join(objtree, d, "." + base[:-2] + ".i.cmd")
line = [l for l in open(cmdfile) if re.match(r"(saved)?cmd_\S+ :=", l)][0]
argv = shlex.split(line.split(":=", 1)[1])


def directive_end(lines, i):
    """The index of the last line of the directive opened at lines[i]:
    after its backslash continuations and any comment it leaves open."""
    in_comment = False
    j = i
    while True:
        t = lines[j].rstrip("\n")
        k = 0
        while k < len(t):
            if in_comment:
                e = t.find("*/", k)
                if e < 0:
                    break
                in_comment, k = False, e + 2
            else:
                s, c = t.find("/*", k), t.find("//", k)
                if c >= 0 and (s < 0 or c < s):
                    break
                if s < 0:
                    break
                in_comment, k = True, s + 2
        if not in_comment and not t.endswith("\\"):
            return j
        j += 1


lines = text.splitlines(keepends=True)
lost = {(b["line"], b["block"]): b for b in config["lost"]}
blocks = [(b["line"], b["block"]) for b in config["covers"]]
for ln, num in sorted(set(blocks), reverse=True):
    if not lines[ln - 1].lstrip().startswith("#"):
        sys.exit("%s:%d: no directive there" % (path, ln))
    end = directive_end(lines, ln - 1)
    lines.insert(end + 1, "__vampyr_B%d__\n" % num)

with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, base)
    out = os.path.join(tmp, base[:-2] + ".i")
    open(src, "w", encoding="utf-8", errors="surrogateescape").write("".join(lines))
    cmd, k = [], 0
    while k < len(argv):
        a = argv[k]
        if a.startswith("-Wp,-MMD,") or a.startswith("-Wp,-MD,"):
            pass
        elif a == "-o":
            cmd += ["-o", out]
            k += 1
        elif a.endswith("/" + path) or a == path:
            # #include "x.h" looks beside the file first: its directory in the tree.
            cmd += ["-iquote", os.path.join(srctree, d), src]
        else:
            cmd.append(a)
        k += 1
    r = subprocess.run(cmd, cwd=objtree, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit("%s %s: gcc -E failed:\n%s" % (name, path, r.stderr[-2000:]))
    seen = set(int(m) for m in re.findall(r"\b__vampyr_B(\d+)__\b", open(out).read()))

outside = {(b["line"], b["block"]): b.get("outside") for b in config["covers"]}
bad = kept = nlost = nout = 0
for ln, num in blocks:
    where = "%s:%d B%d" % (path, ln, num)
    if (ln, num) in lost:
        b = lost[(ln, num)]
        nlost += 1
        ok = num not in seen and b.get("reason") and b.get("kind") in ("kconfig", "toolchain", "outside")
        print("%s %s %s lost (%s): %s%s" % ("ok" if ok else "BAD", name, where, b.get("kind"),
                                          b.get("reason"), "" if num not in seen else " [but gcc -E keeps it]"))
    else:
        kept += 1
        ok = num in seen
        if ok:
            print("ok %s %s compiled" % (name, where))
        elif outside.get((ln, num)):
            # vampyr said so: the condition also names what kconfig cannot set.
            ok = True
            nout += 1
            print("ok %s %s outside: gcc -E drops it, as %s decide%s (not Kconfig)"
                  % (name, where, outside[(ln, num)], "" if "," in outside[(ln, num)] else "s"))
        else:
            print("BAD %s %s claimed but gcc -E drops it" % (name, where))
    bad += not ok
print("summary %s %s: %d claims kept, %d compiled by gcc -E, %d not, as vampyr said (names outside Kconfig); "
      "%d lost, %d with a reason" %
      (name, path, kept, sum(1 for ln, num in blocks if (ln, num) not in lost and num in seen), nout,
       nlost, sum(1 for b in lost.values() if b.get("reason"))))
sys.exit(1 if bad else 0)
