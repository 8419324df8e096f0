#!/usr/bin/env bash
# clang-tidy-16 (.clang-tidy: bug-finding checks) over the sources of lib/, dataplane/ and
# control/, on the compile commands of build-tidy/ (scripts/compile-commands.sh: a non-unity
# clang++-16 configuration, nothing compiled). Exits 1 on a finding that
# tests/tidy/known-findings.txt does not list (a listed one that is gone is a note).
#   scripts/check-tidy.sh --all      every source (198 files): CI (scripts/test.sh)
#   scripts/check-tidy.sh            the sources changed since the branch left main (the
#                                    merge-base of HEAD and origin/main, else main;
#                                    uncommitted and new files included): before a commit
#   scripts/check-tidy.sh FILE...    these sources (a header: its .cpp, else its includers)
#   -j N                             clang-tidy processes at once (default: the CPUs)
# Cost: about 4.5 s of CPU a source (the parse of the nlohmann, fmt, CLI11, Boost.Asio and
# DPDK headers, and the checks' matching inside them). The tree, measured: 15 min of CPU,
# 10 min 14 s with -j 2 on a 2-CPU host shared with other work. Within what a CI step may
# take, so CI checks every file, and a finding a changed header or a new clang-tidy brings
# shows at once.
# A finding in a header is reported once, whichever source included it.
# The known list is a ratchet (as tests/layering/known-violations.txt): `path check count`
# for the findings in files that other work was changing when the check arrived; a count
# may fall (a note says to lower or remove the line) but never rise, and no line is added.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-tidy-16 >/dev/null; then
  echo "check-tidy: clang-tidy-16 not found (Debian 12: apt-get install clang-tidy-16; scripts/setup.sh does)" >&2
  exit 2
fi
scripts/compile-commands.sh
exec python3 - "$@" <<'PY'
import collections, concurrent.futures, json, os, re, subprocess, sys, time

BUILD = os.environ.get("LR_TIDY_DIR", "build-tidy")
KNOWN = "tests/tidy/known-findings.txt"
TREES = ("lib/", "dataplane/", "control/")
args = sys.argv[1:]
jobs = os.cpu_count() or 2
if "-j" in args:
    i = args.index("-j")
    jobs = int(args[i + 1])
    del args[i:i + 2]
check_all = "--all" in args
if check_all:
    args.remove("--all")

def git(*a):
    p = subprocess.run(["git", *a], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None

commands = json.load(open(os.path.join(BUILD, "compile_commands.json")))
sources = sorted({os.path.relpath(os.path.join(c["directory"], c["file"])) for c in commands})
sources = [s for s in sources if s.startswith(TREES)]

def sources_for(paths):
    """The sources for changed files: a source itself; for a header, its x.cpp, else the
    sources that include it."""
    out = set()
    for p in paths:
        if p in sources:
            out.add(p)
        elif p.endswith((".hpp", ".h")) and p.startswith(TREES):
            stem = os.path.splitext(p)[0]
            same = [s for s in sources if os.path.splitext(s)[0] == stem]
            out.update(same or [s for s in sources if '#include "%s"' % p in open(s).read()])
    return out

scope_note = ""
if check_all:
    scope = set(sources)
    scope_note = "every source"
elif args:
    scope = sources_for(args)
    scope_note = "the files named"
else:
    changed, since = set(), None
    if git("rev-parse", "--show-toplevel") is not None:
        for ref in ("origin/main", "main"):
            if git("rev-parse", "-q", "--verify", ref + "^{commit}"):
                since = git("merge-base", "HEAD", ref)
                if since:
                    break
        if since:
            changed = set((git("diff", "--name-only", since) or "").split())
            changed |= set((git("ls-files", "--others", "--exclude-standard") or "").split())
    scope = sources_for(changed)
    scope_note = "changed since %s" % since[:12] if since else "no origin/main or main to compare with"

DIAG = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<kind>warning|error): (?P<msg>.*?)"
                  r"(?: \[(?P<check>[^\]]+)\])?$")

def run(source):
    started = time.monotonic()
    p = subprocess.run(["clang-tidy-16", "-p", BUILD, "--quiet", "--use-color=false", source],
                       capture_output=True, text=True)
    found = []
    for line in (p.stdout + p.stderr).splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        path = os.path.relpath(os.path.join(BUILD, m["path"]) if not os.path.isabs(m["path"]) else m["path"])
        check = (m["check"] or "clang-diagnostic-error").split(",")[0]
        found.append((path, int(m["line"]), check, m["msg"]))
    if p.returncode != 0 and not found:
        found.append((source, 0, "clang-tidy-failed", (p.stderr or p.stdout).strip()[-400:]))
    return source, found, time.monotonic() - started

started = time.monotonic()
findings = {}  # (path, line, check) -> message; a header's finding once, whichever source saw it
with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    for source, found, _ in pool.map(run, sorted(scope)):
        for path, line, check, msg in found:
            findings[(path, line, check)] = msg
elapsed = time.monotonic() - started

known = {}
if os.path.exists(KNOWN):
    for line in open(KNOWN):
        line = line.split("#", 1)[0].split()
        if len(line) == 3:
            known[(line[0], line[1])] = int(line[2])
counts = collections.Counter((path, check) for path, _, check in findings)
failed = False
for (path, line, check), msg in sorted(findings.items()):
    if (path, check) in known and counts[(path, check)] <= known[(path, check)]:
        continue
    print("check-tidy: %s:%d: %s [%s]" % (path, line, msg, check))
    failed = True
for (path, check), n in sorted(known.items()):
    if path not in scope and not check_all:
        continue  # not analysed in this run (a header is, only through --all)
    if counts[(path, check)] > n:
        print("check-tidy: %s: %d findings of %s, %d listed in %s: fix the new ones" % (
            path, counts[(path, check)], check, n, KNOWN))
    elif counts[(path, check)] < n:
        # A note, not a failure: the listed files were being changed on other branches when
        # the list was made, and a merge that fixes one must not turn CI red.
        print("check-tidy: note: %s: %d findings of %s, %d listed: lower or remove its line in %s" % (
            path, counts[(path, check)], check, n, KNOWN))
n_known = sum(1 for k in findings if (k[0], k[2]) in known)
print("check-tidy: %d sources (%s) in %.0f s with %d jobs: %d findings, %d of them listed as known" % (
    len(scope), scope_note, elapsed, jobs, len(findings), n_known))
sys.exit(1 if failed else 0)
PY
