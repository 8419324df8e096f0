"""Every front end calls the data plane through the typed clients of control/client/ (issue
49): no `.call(` of DataplaneClient's raw method outside that folder. A raw call names the
method in a string and builds its params by key, so a renamed method or param would break
only at run time; the typed methods name each RPC once. `linerate call METHOD` goes through
DataplaneClient::call_raw, which is raw by definition and named so.

Run alone, `python3 raw_calls_test.py --root TREE` lists the raw calls of TREE and exits 1
when there is one; as a meson test (`raw_calls`) it checks this tree, and the rule on small
trees made to break it."""
import argparse
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from temp_tree import TempTreeCase  # noqa: E402 (after its path)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

# `.call(`, `->call(` and `.call_all(`, not `.call_raw(` (\b would not stop at `_`).
RAW_CALL = re.compile(r"(?:\.|->)call(?:_all)?\s*\(")

def code_of(line):
    """The line without its // comment (a `//` inside a string ends it early: good enough)."""
    at = line.find("//")
    return line if at < 0 else line[:at]


def raw_calls(root):
    """[(path, line number, line)] of each raw call in root's control/ outside control/client/."""
    found = []
    control = os.path.join(root, "control")
    for folder, dirs, files in os.walk(control):
        dirs.sort()
        rel_folder = os.path.relpath(folder, root).replace(os.sep, "/")
        if rel_folder == "control/client" or rel_folder.startswith("control/client/"):
            dirs[:] = []
            continue
        for name in sorted(files):
            if not name.endswith((".cpp", ".hpp", ".h", ".cc")):
                continue
            path = rel_folder + "/" + name
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                hits = [(path, n, line.rstrip("\n")) for n, line in enumerate(f, 1) if RAW_CALL.search(code_of(line))]
            found.extend(hits)
    return found


def report(calls):
    return "".join("raw call: %s:%d: %s\n" % (path, n, line.strip()) for path, n, line in calls)


class RawCalls(TempTreeCase):
    def test_the_tree_has_none(self):
        calls = raw_calls(ROOT)
        self.assertEqual(calls, [], "\n" + report(calls) +
                         "call a typed method of control/client/ instead (add one there if none fits)")

    def test_typed_calls_and_the_client_itself_pass(self):
        self.write("control/client/port_client.cpp", 'json f() { return client_.call("port.fec", p); }\n')
        self.write("control/cli/port_commands.cpp", "const json r = ports.fec_json(port_);  // not client.call(\n")
        self.write("control/cli/commands/session.cpp", "print_result(client.call_raw(options->method, params));\n")
        self.assertEqual(raw_calls(self.root), [])

    def test_a_raw_call_fails(self):
        self.write("control/cli/port_commands.cpp", 'x();\nconst json r = client.call("port.fec", port);\n')
        self.write("control/otg/otg_server.cpp", 'client_->call(method, params);\n')
        self.write("control/command/command.cpp", "client.call (method);\n")
        self.assertEqual([(p, n) for p, n, _ in raw_calls(self.root)],
                         [("control/cli/port_commands.cpp", 2), ("control/command/command.cpp", 1),
                          ("control/otg/otg_server.cpp", 1)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", help="list the raw calls of this tree instead of running the tests")
    args, rest = parser.parse_known_args()
    if args.root:
        calls = raw_calls(args.root)
        sys.stdout.write(report(calls))
        sys.exit(1 if calls else 0)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
