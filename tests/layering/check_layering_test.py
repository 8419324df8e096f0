"""scripts/check-layering.py against small trees made to break each rule: an include across
the layers, a file over 600 lines, a function over 120 (braces in strings and comments not
counted), a listed violation that grew, one fixed but still listed; and the tree itself."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "..", "..", "scripts", "check-layering.py")


def function(name, body_lines):
    """A C++ function `name` whose definition spans body_lines + 2 lines, with a brace in a
    string and one in a comment that must not count."""
    return "int %s() {\n  const char* s = \"}\";  // }\n%s  return 0;\n}\n" % (name, "  s = s;\n" * (body_lines - 2))


class CheckLayering(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        os.makedirs(os.path.join(self.root, "tests", "layering"))

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)

    def check(self, *args):
        proc = subprocess.run([sys.executable, CHECK, "--root", self.root, *args], capture_output=True, text=True)
        return proc.returncode, proc.stdout

    def test_a_clean_tree_passes(self):
        self.write("dataplane/fastpath/worker.cpp", '#include "dataplane/wire/signature.hpp"\n' + function("poll", 100))
        self.write("control/cli/run.cpp", '#include "dataplane/api/run_report.hpp"\n#include "dataplane/profile/x.hpp"\n')
        self.write("dataplane/main.cpp", '#include "dataplane/mgmt/server.hpp"\n')
        self.assertEqual(self.check(), (0, "layering: 0 include, 0 file and 0 function violations in the tree, "
                                           "0 listed as known\n"))

    def test_each_rule_fails_on_a_new_violation(self):
        self.write("dataplane/fastpath/worker.cpp", '#include "dataplane/port/port.hpp"\n')
        self.write("dataplane/wire/frame.hpp", '#include "dataplane/fastpath/x.hpp"\n')
        self.write("dataplane/main.cpp", '#include "control/views/run_views.hpp"\n')
        self.write("control/doctor/links.cpp", '#include "dataplane/port/ethdev_port.hpp"\n')
        self.write("control/bench/big.cpp", "\n" * 601)
        self.write("control/cli/long.cpp", function("run", 120))  # 122 lines with its head and close
        code, out = self.check()
        self.assertEqual(code, 1, out)
        self.assertEqual(out.splitlines()[1:], [
            "layering: new: file control/bench/big.cpp, 601 lines (at most 600 lines)",
            "layering: new: function control/cli/long.cpp run, 122 lines (at most 120 lines)",
            "layering: new: include control/doctor/links.cpp -> dataplane/port/ethdev_port.hpp",
            "layering: new: include dataplane/fastpath/worker.cpp -> dataplane/port/port.hpp",
            "layering: new: include dataplane/main.cpp -> control/views/run_views.hpp",
            "layering: new: include dataplane/wire/frame.hpp -> dataplane/fastpath/x.hpp",
        ])
        # 120 lines is within the bound.
        self.write("control/cli/long.cpp", function("run", 118))
        self.write("control/bench/big.cpp", "\n" * 600)
        self.assertNotIn("control/cli/long.cpp", self.check()[1])
        self.assertNotIn("control/bench/big.cpp", self.check()[1])

    def test_the_known_list_only_shrinks(self):
        self.write("control/bench/big.cpp", "\n" * 700)
        self.write("dataplane/main.cpp", '#include "control/views/run_views.hpp"\n')
        self.assertEqual(self.check("--write")[0], 0)
        self.assertEqual(self.check()[0], 0)  # listed: passes
        self.write("control/bench/big.cpp", "\n" * 701)
        code, out = self.check()
        self.assertEqual(code, 1)
        self.assertIn("layering: grew: file control/bench/big.cpp, 701 lines (listed at 700: make it shorter, "
                      "not longer)", out)
        self.write("control/bench/big.cpp", "\n" * 10)
        code, out = self.check()
        self.assertEqual(code, 1)
        self.assertIn("layering: fixed, still listed: file control/bench/big.cpp (remove its line from "
                      "tests/layering/known-violations.txt)", out)

    def test_this_tree_keeps_to_its_list(self):
        proc = subprocess.run([sys.executable, CHECK], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
