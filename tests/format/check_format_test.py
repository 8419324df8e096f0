"""scripts/check-format.sh against small trees (with the repository's .clang-format): a new
file that is not formatted fails, a listed one passes, a listed one that became formatted or
went away must leave the list, --fix and --update keep the list; in a git checkout, the lines
a branch changed in a listed file must be formatted, the rest of it need not be; and the
tree itself."""
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from temp_tree import TempTreeCase  # noqa: E402 (after its path)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
CHECK = os.path.join(ROOT, "scripts", "check-format.sh")
LIST = "tests/format/unformatted.txt"

FORMATTED = "int f() { return 1; }\n"
UNFORMATTED = "int  f() {return 1;}\n"


class CheckFormat(TempTreeCase):
    def setUp(self):
        super().setUp()
        shutil.copy(os.path.join(ROOT, ".clang-format"), self.root)

    def read(self, path):
        with open(os.path.join(self.root, path)) as f:
            return f.read()

    def listed(self, *paths):
        self.write(LIST, "# not yet formatted\n" + "".join(p + "\n" for p in paths))

    def check(self, *args):
        proc = subprocess.run(["bash", CHECK, "--root", self.root, *args], capture_output=True, text=True)
        return proc.returncode, proc.stdout + proc.stderr

    def git(self, *args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=self.root,
                       check=True, capture_output=True)

    def test_a_formatted_tree_passes(self):
        self.write("lib/common/a.cpp", FORMATTED)
        self.write("lib/common/a.hpp", "#pragma once\n\n#include <rte_mbuf.h>\n\n#include <cstdint>\n\n"
                                       '#include "lib/common/b.hpp"\n')
        self.assertEqual(self.check(), (0, "check-format: 2 of 2 files formatted, 0 listed as not yet; "
                                           "no git checkout: changed lines not checked\n"))

    def test_a_new_file_that_is_not_formatted_fails(self):
        self.write("lib/common/a.cpp", FORMATTED)
        self.write("control/cli/new.cpp", UNFORMATTED)
        code, out = self.check()
        self.assertEqual(code, 1, out)
        self.assertIn("check-format: control/cli/new.cpp is not formatted: clang-format-16 -i control/cli/new.cpp", out)
        self.assertIn("-int  f() {return 1;}\n+int f() { return 1; }\n", out)
        self.assertNotIn("a.cpp", out)

    def test_the_include_blocks_are_part_of_the_layout(self):
        # <standard> before <library>, and a project header among them: regrouped.
        self.write("lib/common/a.cpp", '#include "lib/common/a.hpp"\n#include <cstdint>\n#include <rte_mbuf.h>\n'
                                       '#include "lib/common/b.hpp"\n')
        code, out = self.check()
        self.assertEqual(code, 1, out)
        self.assertEqual(subprocess.run(["clang-format-16", os.path.join(self.root, "lib/common/a.cpp")],
                                        capture_output=True, text=True).stdout,
                         '#include "lib/common/a.hpp"\n\n#include <rte_mbuf.h>\n\n#include <cstdint>\n\n'
                         '#include "lib/common/b.hpp"\n')

    def test_a_listed_file_passes_until_it_is_formatted(self):
        self.write("dataplane/old.cpp", UNFORMATTED)
        self.listed("dataplane/old.cpp")
        self.assertEqual(self.check()[0], 0)
        self.write("dataplane/old.cpp", FORMATTED)
        code, out = self.check()
        self.assertEqual(code, 1, out)
        self.assertIn("check-format: dataplane/old.cpp is formatted now: remove it from " + LIST, out)
        os.remove(os.path.join(self.root, "dataplane/old.cpp"))
        code, out = self.check()
        self.assertEqual(code, 1, out)
        self.assertIn("check-format: dataplane/old.cpp is listed in %s but is not in the tree" % LIST, out)

    def test_fix_formats_and_unlists_and_update_rewrites_the_list(self):
        self.write("dataplane/a.cpp", UNFORMATTED)
        self.write("dataplane/b.cpp", UNFORMATTED)
        self.assertEqual(self.check("--update")[0], 0)
        self.assertIn("dataplane/a.cpp\ndataplane/b.cpp\n", self.read(LIST))
        self.assertEqual(self.check()[0], 0)
        self.assertEqual(self.check("--fix", "dataplane/a.cpp")[0], 0)
        self.assertEqual(self.read("dataplane/a.cpp"), FORMATTED)
        self.assertNotIn("dataplane/a.cpp", self.read(LIST))
        self.assertEqual(self.check()[0], 0)

    @unittest.skipUnless(shutil.which("git"), "no git")
    def test_in_a_branch_the_changed_lines_of_a_listed_file_must_be_formatted(self):
        self.write("dataplane/old.cpp", UNFORMATTED + "int  g() {return 2;}\n")
        self.listed("dataplane/old.cpp")
        self.git("init", "-q", "-b", "main")
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "base")
        self.git("checkout", "-q", "-b", "work")
        self.assertEqual(self.check()[0], 0)
        # A formatted line added: the old lines around it need not change.
        self.write("dataplane/old.cpp", UNFORMATTED + "int  g() {return 2;}\nint h() { return 3; }\n")
        code, out = self.check()
        self.assertEqual(code, 0, out)
        self.assertIn("changed lines since", out)
        # An unformatted line added (uncommitted, then committed): fails either way.
        self.write("dataplane/old.cpp", UNFORMATTED + "int  g() {return 2;}\nint  h() {return 3;}\n")
        code, out = self.check()
        self.assertEqual(code, 1, out)
        self.assertIn("+int h() { return 3; }", out)
        self.assertNotIn("+int g()", out)
        self.git("commit", "-q", "-am", "h")
        self.assertEqual(self.check()[0], 1)
        # On main itself (CI's checkout) the branch's commits are the base: nothing changed.
        self.git("checkout", "-q", "main")
        self.git("merge", "-q", "work")
        self.assertEqual(self.check()[0], 0)

    def test_this_tree_keeps_to_its_list(self):
        proc = subprocess.run(["bash", CHECK], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
