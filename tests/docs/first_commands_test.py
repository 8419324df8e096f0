"""Every page's first command runs, as a new user types it from the repository's root.

The first ```sh block of README.md and of each page under docs/ runs line by line in a
fresh folder that holds the repository's build/, config/ and scripts/ (so what a command
writes, a report or a capture, lands there): a line ending in `&` starts in the
background, and the next line waits until that program serves, as a person waits for
its "listening" line; `kill %N` ends the Nth of them. Each line must exit 0, and the page's
output must say what the page promises (EXPECTED). The programs a block left running are
ended by their PIDs, the namespaces it left are removed. A page whose block cannot run
here says why (NOT_RUN), and a page with a block that is in neither table fails: a new
page must be run or explained.

Usage: first_commands_test.py BUILD_DIR [unittest arguments]
"""
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BUILD = None  # argv[1]
DEFAULT_SOCKET = "/run/linerate/dataplane.sock"

# What each page's first block must print (a regular expression over its whole output).
EXPECTED = {
    "README.md": r"report: loopback-report\.json",
    "docs/guide/traffic.md": r"report: loopback-report\.json",
    "docs/guide/benchmarks.md": r"(?s)RFC 2544.*NDR",
    "docs/guide/capture.md": r"(?m)^1\t\d+\t",
    "docs/guide/doctor.md": r"\d+ checks: 0 failed",
    "docs/guide/exporter.md": r'lr_\w+\{[^}]*stream="vlan64"',
    "docs/guide/lossless.md": r"(?i)verdict|PASS",
    "docs/guide/optics.md": r"INCOMPLETE: not qualified, module, fec_mode",
    # veth has no module: said once per netdev, then its readings as a table.
    "docs/guide/optics-watch.md": r"(?s)lra: no module EEPROM: module EEPROM read is not supported by the kernel "
                                  r"netdev lra \(veth\).*stopped after 3 interval\(s\).*time \(UTC\) +link",
    "docs/guide/otg.md": r'"api_spec_version"',
    "docs/guide/port-control.md": r"(?i)link",
    "docs/guide/rfc2889.md": r"(?i)RFC 2889",
    "docs/reference/rpc.md": r"(?i)serving|listening|socket",
    # The data plane's description, read over mutual TLS.
    "docs/guide/engines.md": r'(?s)"node": .*"protocol": 2',
    # RFC 2544 through the kernel's router: its throughput table, the largest size's row.
    "docs/guide/routed.md": r"(?s)throughput \(RFC 2544 §26\.1.*\n +1518 +\d+\.\d+ +\d+\.\d+ ",
    # The SR-IOV overlay, rendered without a cluster: the engines with their VF.
    "docs/guide/kubernetes.md": r"(?s)kind: StatefulSet.*intel\.com/linerate_vf: \"1\"",
}

# A line's exit code other than 0 that its page says it has here, by page: the optics
# qualification on veth has no module to read and no FEC to judge, and says INCOMPLETE
# (exit 6, kExitIncomplete) rather than pass what it could not measure.
EXIT_CODES = {"docs/guide/optics.md": {"optics qualify": 6}}

# Pages whose first block this test does not run, and why.
NOT_RUN = {
    "docs/guide/container.md": "builds a container image: needs a container engine and a Debian base image "
                               "from a registry, which a test host need not reach",
    "docs/dev/benchmarks.md": "a benchmark of several minutes that needs the host to itself (scripts/bench.sh "
                              "is run by hand, and its numbers are on the page)",
    "docs/dev/testing.md": "scripts/test.sh is the test suite that runs this test",
}

# Pages whose block ends in a program that serves until stopped (not sent to the
# background): it runs until it serves, then is stopped with Ctrl-C (SIGINT).
SERVES_IN_FOREGROUND = {"docs/reference/rpc.md"}


def slurp(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def first_block(path):
    """The first ```sh / ```bash block's lines, continuation lines joined; None if none."""
    match = re.search(r"```(?:sh|bash)\n(.*?)```", slurp(path), re.S)
    if not match:
        return None
    return [line for line in match.group(1).replace("\\\n", " ").splitlines() if line.strip()]


def pages():
    paths = ["README.md"] + sorted(glob.glob("docs/**/*.md", root_dir=ROOT, recursive=True))
    return [p for p in paths if first_block(os.path.join(ROOT, p)) is not None]


def accepts(path):
    """Whether a Unix socket at `path` takes a connection."""
    with socket.socket(socket.AF_UNIX) as s:
        try:
            s.connect(path)
            return True
        except OSError:
            return False


class Block:
    """One page's block, run in `folder`; `out` collects what every line printed."""

    def __init__(self, folder):
        self.folder = folder
        self.out = ""
        self.background = []  # (command, Popen, its output file)
        self.namespaces_before = self.namespaces()

    @staticmethod
    def namespaces():
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        return {line.split()[0] for line in listed.splitlines() if line.strip()}

    def run(self, line, page):
        if re.fullmatch(r"kill %(\d+)", line.strip()):
            command, proc, _ = self.background[int(line.split("%")[1]) - 1]
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
            return
        if line.rstrip().endswith("&"):
            self.start(line.rstrip()[:-1], page)
            return
        if page in SERVES_IN_FOREGROUND:
            self.start(line, page)
            _, proc, log = self.background.pop()
            proc.send_signal(signal.SIGINT)
            code = proc.wait(60)
            self.out += slurp(log)
            if code != 0:
                raise AssertionError("%s: `%s` exited %d after Ctrl-C:\n%s" % (page, line, code, self.out[-3000:]))
            return
        done = subprocess.run(line, shell=True, cwd=self.folder, capture_output=True, text=True, timeout=900,
                              executable="/bin/bash")
        self.out += done.stdout + done.stderr
        expected = [code for words, code in EXIT_CODES.get(page, {}).items() if words in line] or [0]
        if done.returncode != expected[0]:
            raise AssertionError("%s: `%s` exited %d, not %d:\n%s%s" % (page, line, done.returncode, expected[0],
                                                                      done.stdout[-3000:], done.stderr[-3000:]))

    def start(self, command, page):
        log = os.path.join(self.folder, "background-%d.log" % len(self.background))
        with open(log, "w") as out:
            proc = subprocess.Popen(command, shell=True, cwd=self.folder, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True, executable="/bin/bash")
        self.background.append((command, proc, log))
        self.wait_until_serving(command, proc, log, page)

    def wait_until_serving(self, command, proc, log, page):
        """A person waits for the program to come up before the next line."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError("%s: `%s` exited %d before serving:\n%s" % (page, command, proc.returncode,
                                                                                slurp(log)[-3000:]))
            said = slurp(log)
            if "linerate-dataplane" in command and "--serve" in command:
                if accepts(DEFAULT_SOCKET) or re.search(r"serving|control socket", said):
                    return
            elif re.search(r"listening on", said):
                return
            time.sleep(0.2)
        raise AssertionError("%s: `%s` did not serve within 2 minutes:\n%s" % (page, command, slurp(log)[-3000:]))

    def end(self):
        """The block's programs ended by their PIDs (their process groups: a shell line's
        program is the shell's child), and the namespaces it made and left, removed."""
        for command, proc, log in self.background:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(30)
            self.out += slurp(log)
        for name in self.namespaces() - self.namespaces_before:
            subprocess.run(["ip", "netns", "del", name], check=False)


class FirstCommands(unittest.TestCase):
    def test_every_page_with_a_block_is_run_or_explained(self):
        for page in pages():
            self.assertTrue(page in EXPECTED or page in NOT_RUN,
                            "%s has a first command block: add it to EXPECTED (what it prints) or NOT_RUN (why not)"
                            % page)
        for page in list(EXPECTED) + list(NOT_RUN):
            self.assertIn(page, pages(), "%s is listed but has no first command block" % page)

    def test_each_first_command_runs(self):
        if accepts(DEFAULT_SOCKET):
            self.skipTest("a data plane serves at %s: the pages' commands would drive it" % DEFAULT_SOCKET)
        for page in pages():
            if page in NOT_RUN:
                print("not run: %s: %s" % (page, NOT_RUN[page]))
                continue
            with self.subTest(page=page):
                started = time.monotonic()
                self.run_page(page)
                print("ran: %s in %.1f s" % (page, time.monotonic() - started))
                sys.stdout.flush()

    def run_page(self, page):
        folder = tempfile.mkdtemp(prefix="lr-first-command-")
        self.addCleanup(shutil.rmtree, folder, True)
        os.symlink(BUILD, os.path.join(folder, "build"))
        for tree in ("config", "scripts", "docker", "tests", "meson.build", "meson_options.txt", "lib", "dataplane",
                     "control", "deploy"):
            os.symlink(os.path.join(ROOT, tree), os.path.join(folder, tree))
        block = Block(folder)
        try:
            for line in first_block(os.path.join(ROOT, page)):
                block.run(line, page)
        finally:
            block.end()
        self.assertRegex(block.out, EXPECTED[page], "%s: the first block's output:\n%s" % (page, block.out[-4000:]))


if __name__ == "__main__":
    BUILD = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
