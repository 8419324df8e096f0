#!/usr/bin/env python3
"""The tree's layering and size rules, checked (a meson test: `layering`).

Three trees, each above the one before it:
- lib/        what both programs use, without DPDK; includes nothing of dataplane/ or control/.
- dataplane/  the DPDK program; includes lib/, never control/.
- control/    the linerate process; includes lib/, never dataplane/ (it speaks to the data
              plane through lib/api's contract over the socket).
Inside each tree, a folder includes only itself and the folders listed below it in LAYERS
(a file at a tree's top, such as main.cpp, may include any of its folders); a folder not in
LAYERS is refused until it is given a place. control/'s front ends (cli, export, otg) include
none of each other: control/main.cpp composes their subcommands.
No source file passes 600 lines, no function 80 (its body counted by braces).

What the tree broke before these rules were checked is listed in
tests/layering/known-violations.txt: a ratchet. A violation not listed fails; a listed file
or function that grew fails; a listed entry the tree no longer breaks fails too, until its
line is removed, so the list only shrinks. `--write` rewrites the list from the tree (for
the commit that fixes some of it; never to let a new violation in).
"""
import argparse
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
KNOWN_IN_TREE = os.path.join("tests", "layering", "known-violations.txt")
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80

# The trees, bottom first, and the trees each may include besides itself.
TREES = {"lib": set(), "dataplane": {"lib"}, "control": {"lib"}}

# control/'s front ends: each may include every layer below it, none of the others.
CONTROL_BELOW_FRONT_ENDS = {"client", "http", "reports", "suites", "views", "command"}

# What each folder of a tree may include (itself always): the folders below it.
LAYERS = {
    "lib": {
        "common": set(),
        "wire": {"common"},
        "api": {"common", "wire"},
        "views": {"common", "api"},
        "host": {"common"},
        "hosts": {"common", "wire", "api"},
        "profile": {"common", "api", "wire", "hosts"},
        "frames": {"common", "api", "profile", "wire"},
        "tls": {"common"},
        "net": {"common"},
    },
    "dataplane": {  # and any folder of lib/
        "fastpath": set(),
        "eal": set(),
        "port": {"eal"},
        "plan": {"eal", "fastpath", "port"},
        "switch": {"fastpath", "port"},
        "capture": {"fastpath"},
        "hosts": {"fastpath", "port"},
        "engine": {"capture", "eal", "fastpath", "hosts", "plan", "port", "switch"},
        "mgmt": {"capture", "eal", "engine", "fastpath", "hosts", "plan", "port", "switch"},
    },
    "control": {  # and any folder of lib/
        "client": set(),
        "http": set(),
        "reports": {"client"},
        "suites": {"client", "reports"},
        "views": {"client", "reports", "suites"},
        "command": {"client"},
        "cli": CONTROL_BELOW_FRONT_ENDS,
        "export": CONTROL_BELOW_FRONT_ENDS,
        "otg": CONTROL_BELOW_FRONT_ENDS,
    },
}
SOURCES = (".cpp", ".hpp", ".h", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"((lib|dataplane|control)/[^"]+)"', re.M)


def sources(root):
    for top in TREES:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(SOURCES):
                    path = os.path.join(folder, name)
                    yield os.path.relpath(path, root), path


def include_refused(source, target):
    """Why `source` (a path in the tree) may not include `target`: the rule it breaks, or
    None where it may."""
    s, t = source.split("/"), target.split("/")
    if t[0] != s[0]:
        if t[0] in TREES[s[0]]:
            return None
        below = sorted(TREES[s[0]])
        return "%s/ includes %s" % (s[0], " and ".join(b + "/" for b in below) if below else "nothing outside itself")
    if len(s) == 2 or (len(t) > 1 and t[1] == s[1]):  # a tree's top-level file, or its own folder
        return None
    layers = LAYERS[s[0]]
    if s[1] not in layers:
        return "%s/%s/ has no place in the layers (add it to LAYERS in scripts/check-layering.py)" % (s[0], s[1])
    allowed = layers[s[1]]
    if len(t) > 1 and t[1] in allowed:
        return None
    return "%s/%s/ includes %s" % (s[0], s[1], ", ".join("%s/%s/" % (s[0], a) for a in sorted(allowed))
                                   if allowed else "no other folder of %s/" % s[0])


def code_only(text):
    """The text with comments, string and character literals blanked (newlines kept), so
    that braces in them do not count."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


NOT_FUNCTIONS = re.compile(r"^(namespace|class|struct|union|enum|extern)\b|=\s*$|\b(namespace|class|struct|union|enum)\s+[\w:]*\s*(final\s*)?(:[^()]*)?$")


def long_functions(text):
    """(name, lines) of each outermost function body over MAX_FUNCTION_LINES."""
    code = code_only(text)
    found, depth, header_start, stack = [], 0, 0, []
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            header = " ".join(code[header_start:i].split())
            in_function = any(kind == "function" for kind, _, _ in stack)
            kind = "block"
            if not in_function and ")" in header and not NOT_FUNCTIONS.search(header):
                kind = "function"
            stack.append((kind, line, header))
            header_start = i + 1
        elif c == "}":
            if stack:
                kind, start, header = stack.pop()
                if kind == "function" and line - start + 1 > MAX_FUNCTION_LINES:
                    name = re.findall(r"([~\w:]+(?:operator\s*\S+)?)\s*\(", header)
                    found.append((name[0] if name else header[:40], line - start + 1))
            header_start = i + 1
        elif c == ";":
            header_start = i + 1
    return found


RULES = {}  # an include violation's key -> the rule it breaks, for its message


def violations(root):
    """Every violation in the tree: (key, measure), key unique per place."""
    found = {}
    for rel, path in sources(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            rule = include_refused(rel, m.group(1))
            if rule:
                found["include %s -> %s" % (rel, m.group(1))] = 1
                RULES["include %s -> %s" % (rel, m.group(1))] = rule
        lines = text.count("\n")
        if lines > MAX_FILE_LINES:
            found["file %s" % rel] = lines
        for name, length in long_functions(text):
            found["function %s %s" % (rel, name)] = max(length, found.get("function %s %s" % (rel, name), 0))
    return found


def read_known(path):
    known = {}
    if os.path.exists(path):
        with open(path) as f:
            for raw in f:
                entry = raw.split("#")[0].strip()
                if entry:
                    key, _, measure = entry.rpartition(" ")
                    known[key] = int(measure)
    return known


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the known violations from the tree")
    parser.add_argument("--root", default=ROOT, help="the tree (default: this checkout)")
    args = parser.parse_args()
    known_path = os.path.join(args.root, KNOWN_IN_TREE)
    found = violations(args.root)
    if args.write:
        with open(known_path, "w") as f:
            f.write("# What the tree broke when scripts/check-layering.py began to check it: each line a\n"
                    "# violation and its measure (lines; 1 for an include). Only ever remove lines.\n")
            for key in sorted(found):
                f.write("%s %d\n" % (key, found[key]))
        print("%d known violations written to %s" % (len(found), KNOWN_IN_TREE))
        return 0
    known = read_known(known_path)
    errors = []
    for key, measure in sorted(found.items()):
        if key not in known:
            limit = {"include": " (%s)" % RULES.get(key, ""), "file": " (at most %d lines)" % MAX_FILE_LINES,
                     "function": " (at most %d lines)" % MAX_FUNCTION_LINES}[key.split()[0]]
            errors.append("new: %s%s%s" % (key, "" if key.startswith("include") else ", %d lines" % measure, limit))
        elif measure > known[key]:
            errors.append("grew: %s, %d lines (listed at %d: make it shorter, not longer)" % (key, measure, known[key]))
    for key in sorted(set(known) - set(found)):
        errors.append("fixed, still listed: %s (remove its line from %s)" % (key, KNOWN_IN_TREE))
    by_kind = {}
    for key in found:
        by_kind[key.split()[0]] = by_kind.get(key.split()[0], 0) + 1
    print("layering: %d include, %d file and %d function violations in the tree, %d listed as known"
          % (by_kind.get("include", 0), by_kind.get("file", 0), by_kind.get("function", 0), len(known)))
    for e in errors:
        print("layering: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
