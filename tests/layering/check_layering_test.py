"""scripts/check-layering.py against small trees made to break each rule: an include across
the trees (lib/ -> dataplane/, dataplane/ -> control/, control/ -> dataplane/), a climb inside
each tree, a front end including another, a folder with no place in the layers, a file over
600 lines, a function over 80 (braces in strings and comments not counted), a listed violation
that grew, one fixed but still listed; and the tree itself."""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from temp_tree import TempTreeCase  # noqa: E402 (after its path)

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "..", "..", "scripts", "check-layering.py")


def function(name, body_lines):
    """A C++ function `name` whose definition spans body_lines + 2 lines, with a brace in a
    string and one in a comment that must not count."""
    return "int %s() {\n  const char* s = \"}\";  // }\n%s  return 0;\n}\n" % (name, "  s = s;\n" * (body_lines - 2))


class CheckLayering(TempTreeCase):
    def setUp(self):
        super().setUp()
        os.makedirs(os.path.join(self.root, "tests", "layering"))

    def check(self, *args):
        proc = subprocess.run([sys.executable, CHECK, "--root", self.root, *args], capture_output=True, text=True)
        return proc.returncode, proc.stdout

    def test_a_clean_tree_passes(self):
        self.write("lib/wire/frame.hpp", '#include "lib/common/check.hpp"\n')
        self.write("lib/profile/stream_table.cpp", '#include "lib/api/stream_spec.hpp"\n#include "lib/wire/frame.hpp"\n')
        self.write("dataplane/fastpath/worker.cpp", '#include "lib/wire/signature.hpp"\n' + function("poll", 76))
        self.write("dataplane/engine/engine.cpp", '#include "dataplane/fastpath/worker.hpp"\n#include "lib/profile/x.hpp"\n')
        self.write("dataplane/main.cpp", '#include "dataplane/mgmt/server.hpp"\n')
        self.write("control/suites/bench/trial.cpp", '#include "control/client/run_client.hpp"\n'
                                                     '#include "control/reports/bench_report.hpp"\n')
        self.write("control/views/bench_html.cpp", '#include "control/suites/bench/x.hpp"\n')
        self.write("control/cli/run.cpp", '#include "lib/api/run_report.hpp"\n#include "control/views/bench_html.hpp"\n'
                                          '#include "control/command/command.hpp"\n')
        self.write("control/otg/otg_server.cpp", '#include "control/http/http_listener.hpp"\n')
        self.write("control/main.cpp", '#include "control/otg/otg_command.hpp"\n#include "control/cli/commands.hpp"\n')
        self.assertEqual(self.check(), (0, "layering: 0 include, 0 file and 0 function violations in the tree, "
                                           "0 listed as known\n"))

    def test_each_rule_fails_on_a_new_violation(self):
        self.write("lib/api/run_report.hpp", '#include "dataplane/fastpath/counters.hpp"\n')
        self.write("lib/wire/frame.hpp", '#include "lib/profile/profile.hpp"\n')
        self.write("dataplane/fastpath/worker.cpp", '#include "dataplane/port/port.hpp"\n')
        self.write("dataplane/main.cpp", '#include "control/views/run_views.hpp"\n')
        self.write("control/suites/doctor/links.cpp", '#include "dataplane/port/ethdev_port.hpp"\n')
        self.write("control/suites/bench/rfc2544.cpp", '#include "control/cli/exit_codes.hpp"\n'
                                                       '#include "control/views/bench_csv.hpp"\n')
        self.write("control/reports/bench_report.hpp", '#include "control/suites/bench/trial.hpp"\n')
        self.write("control/cli/commands/otg.cpp", '#include "control/otg/otg_server.hpp"\n')
        self.write("control/otg/otg_server.cpp", '#include "control/export/prometheus.hpp"\n')
        self.write("control/gadgets/gadget.cpp", '#include "control/client/run_client.hpp"\n')
        self.write("control/suites/big.cpp", "\n" * 601)
        self.write("control/cli/long.cpp", function("run", 80))  # 82 lines with its head and close
        code, out = self.check()
        self.assertEqual(code, 1, out)
        self.assertEqual(out.splitlines()[1:], [
            "layering: new: file control/suites/big.cpp, 601 lines (at most 600 lines)",
            "layering: new: function control/cli/long.cpp run, 82 lines (at most 80 lines)",
            "layering: new: include control/cli/commands/otg.cpp -> control/otg/otg_server.hpp (control/cli/ includes "
            "control/client/, control/command/, control/http/, control/reports/, control/suites/, control/views/)",
            "layering: new: include control/gadgets/gadget.cpp -> control/client/run_client.hpp (control/gadgets/ has no "
            "place in the layers (add it to LAYERS in scripts/check-layering.py))",
            "layering: new: include control/otg/otg_server.cpp -> control/export/prometheus.hpp (control/otg/ includes "
            "control/client/, control/command/, control/http/, control/reports/, control/suites/, control/views/)",
            "layering: new: include control/reports/bench_report.hpp -> control/suites/bench/trial.hpp "
            "(control/reports/ includes control/client/)",
            "layering: new: include control/suites/bench/rfc2544.cpp -> control/cli/exit_codes.hpp (control/suites/ "
            "includes control/client/, control/reports/)",
            "layering: new: include control/suites/bench/rfc2544.cpp -> control/views/bench_csv.hpp (control/suites/ "
            "includes control/client/, control/reports/)",
            "layering: new: include control/suites/doctor/links.cpp -> dataplane/port/ethdev_port.hpp (control/ "
            "includes lib/)",
            "layering: new: include dataplane/fastpath/worker.cpp -> dataplane/port/port.hpp (dataplane/fastpath/ "
            "includes no other folder of dataplane/)",
            "layering: new: include dataplane/main.cpp -> control/views/run_views.hpp (dataplane/ includes lib/)",
            "layering: new: include lib/api/run_report.hpp -> dataplane/fastpath/counters.hpp (lib/ includes nothing "
            "outside itself)",
            "layering: new: include lib/wire/frame.hpp -> lib/profile/profile.hpp (lib/wire/ includes lib/common/)",
        ])
        # 80 lines is within the bound, as 600 lines a file.
        self.write("control/cli/long.cpp", function("run", 78))
        self.write("control/suites/big.cpp", "\n" * 600)
        self.assertNotIn("control/cli/long.cpp", self.check()[1])
        self.assertNotIn("control/suites/big.cpp", self.check()[1])

    def test_the_known_list_only_shrinks(self):
        self.write("control/suites/big.cpp", "\n" * 700)
        self.write("dataplane/main.cpp", '#include "control/views/run_views.hpp"\n')
        self.assertEqual(self.check("--write")[0], 0)
        self.assertEqual(self.check()[0], 0)  # listed: passes
        self.write("control/suites/big.cpp", "\n" * 701)
        code, out = self.check()
        self.assertEqual(code, 1)
        self.assertIn("layering: grew: file control/suites/big.cpp, 701 lines (listed at 700: make it shorter, "
                      "not longer)", out)
        self.write("control/suites/big.cpp", "\n" * 10)
        code, out = self.check()
        self.assertEqual(code, 1)
        self.assertIn("layering: fixed, still listed: file control/suites/big.cpp (remove its line from "
                      "tests/layering/known-violations.txt)", out)

    def test_this_tree_keeps_to_its_list(self):
        proc = subprocess.run([sys.executable, CHECK], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
