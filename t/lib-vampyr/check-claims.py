#!/usr/bin/env python3
"""The oracle of t5xxx: expand each fragment of `git vampyr --format=json` with
the real kconfig (conf --alldefconfig), turn the expanded .config into -D/-U
flags for every symbol of the Kconfig tree, run unifdef on each file and check
that the first body line of every claimed block survives.

usage: check-claims.py <json> <srctree> <conf> [expanded]
With "expanded", use each config's own expanded .config instead of running conf.
Prints one line per claimed block ("ok|LOST name path:line") and exits 1 when
one is lost."""
import json, os, re, subprocess, sys

report = json.load(open(sys.argv[1]))
tree, conf = sys.argv[2], sys.argv[3]
use_expanded = len(sys.argv) > 4 and sys.argv[4] == "expanded"

symbols = set()
for root, _, files in os.walk(tree):
    if ".git" in root:
        continue
    for f in files:
        if f.startswith("Kconfig"):
            for line in open(os.path.join(root, f)):
                m = re.match(r"\s*(?:menu)?config\s+(\w+)", line)
                if m:
                    symbols.add(m.group(1))

def flags_of(config_text):
    values = {}
    for line in config_text.splitlines():
        m = re.match(r"CONFIG_(\w+)=(.*)", line)
        if m:
            values[m.group(1)] = m.group(2)
    flags = []
    for s in sorted(symbols):
        v = values.get(s)
        if v == "y":
            flags += ["-DCONFIG_%s=1" % s, "-UCONFIG_%s_MODULE" % s]
        elif v == "m":
            flags += ["-UCONFIG_%s" % s, "-DCONFIG_%s_MODULE=1" % s]
        elif v is None or v == "n":
            flags += ["-UCONFIG_%s" % s, "-UCONFIG_%s_MODULE" % s]
        else:
            flags += ["-DCONFIG_%s=%s" % (s, v), "-UCONFIG_%s_MODULE" % s]
    return flags

bad = 0
for c in report["configs"]:
    if use_expanded:
        text = open(c["expanded"]).read()
    else:
        out = os.path.abspath("oracle-%s.config" % c["name"])
        env = dict(os.environ, srctree=tree, KCONFIG_CONFIG=out,
                   KCONFIG_ALLCONFIG=os.path.abspath(c["path"]))
        subprocess.run([conf, "--alldefconfig", "Kconfig"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        text = open(out).read()
    flags = flags_of(text)
    for b in c["covers"]:
        path = os.path.join(tree, b["path"])
        lines = open(path).read().split("\n")
        body = lines[b["line"]]  # the line after the opening directive
        res = subprocess.run(["unifdef", "-k"] + flags + [path], capture_output=True, text=True)
        if res.returncode > 1:
            sys.exit("unifdef failed: " + res.stderr)
        kept = body in res.stdout.split("\n")
        print("%s %s %s:%d" % ("ok" if kept else "LOST", c["name"], b["path"], b["line"]))
        bad |= not kept
sys.exit(1 if bad else 0)
