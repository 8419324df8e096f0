"""The optics watch's Prometheus alerts (docker/prometheus/optics-alerts.yml): promtool checks
the rules and runs their unit tests (tests/prometheus/optics_alerts_test.yml), and every alert
must have a test case where it fires and one where it stays quiet, so that a rule added
without its tests fails here.

    python3 tests/prometheus/optics_alerts_test.py   (promtool on PATH: Debian's prometheus)
"""
import os
import shutil
import subprocess
import sys
import unittest

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
RULES = os.path.join(ROOT, "docker", "prometheus", "optics-alerts.yml")
TESTS = os.path.join(ROOT, "tests", "prometheus", "optics_alerts_test.yml")


def promtool(*args):
    """promtool's exit status and its output, stdout and stderr together."""
    out = subprocess.run(["promtool", *args], cwd=ROOT, capture_output=True, text=True)
    return out.returncode, out.stdout + out.stderr


def alert_names(rules):
    return {r["alert"] for g in rules["groups"] for r in g["rules"] if "alert" in r}


def test_cases(tests):
    """(alertname, fires) for each alert_rule_test case of the unit tests."""
    return [(case["alertname"], bool(case.get("exp_alerts")))
            for t in tests["tests"] for case in t.get("alert_rule_test", [])]


class OpticsAlerts(unittest.TestCase):
    def setUp(self):
        with open(RULES) as f:
            self.rules = yaml.safe_load(f)
        with open(TESTS) as f:
            self.tests = yaml.safe_load(f)

    def test_promtool_checks_the_rules(self):
        rc, out = promtool("check", "rules", RULES)
        self.assertEqual(rc, 0, out)

    def test_promtool_unit_tests_pass(self):
        rc, out = promtool("test", "rules", TESTS)
        self.assertEqual(rc, 0, out)

    def test_the_unit_tests_load_these_rules(self):
        here = os.path.dirname(TESTS)
        loaded = [os.path.normpath(os.path.join(here, p)) for p in self.tests["rule_files"]]
        self.assertEqual(loaded, [RULES])

    def test_every_alert_fires_in_a_case_and_stays_quiet_in_another(self):
        names = alert_names(self.rules)
        cases = test_cases(self.tests)
        self.assertTrue(names, "no alerts in %s" % RULES)
        missing = ["%s: no case where it %s" % (name, "fires" if fires else "stays quiet")
                   for name in sorted(names) for fires in (True, False) if (name, fires) not in cases]
        self.assertEqual(missing, [])

    def test_every_case_names_an_alert_of_the_rules(self):
        # A misspelt alertname expecting no alerts would pass promtool without testing anything.
        names = alert_names(self.rules)
        unknown = sorted({name for name, _ in test_cases(self.tests)} - names)
        self.assertEqual(unknown, [])

    def test_every_alert_has_a_severity_and_says_where(self):
        for g in self.rules["groups"]:
            for r in g["rules"]:
                if "alert" not in r:
                    continue
                with self.subTest(alert=r["alert"]):
                    self.assertIn(r.get("labels", {}).get("severity"), ("warning", "critical"))
                    annotations = r.get("annotations", {})
                    self.assertIn("summary", annotations)
                    self.assertIn("$labels.port", annotations.get("description", ""))


if __name__ == "__main__":
    if not shutil.which("promtool"):
        print("SKIP: needs promtool (Debian's prometheus package)")
        sys.exit(77)  # meson's skip: said, never a pass
    unittest.main(verbosity=2)
