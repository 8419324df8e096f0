"""`linerate doctor` through the program: on this host (no NIC DPDK drives: it says so),
its JSON and node_exporter textfile agree, a bad PCI address is refused, and on a fixture
root without hugepages it fails with exit code 1 and the fix."""
import json
import os
import subprocess
import sys
import unittest

import lrtest


class DoctorCli(lrtest.DataplaneCase):
    def doctor(self, *args):
        return subprocess.run([sys.modules["__main__"].LINERATE, "doctor", *args], capture_output=True, text=True,
                              timeout=60)

    def test_this_host_json_and_textfile_agree(self):
        textfile = os.path.join(self.dir, "linerate.prom")
        proc = self.doctor("--json", "--prometheus", textfile)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        report = json.loads(proc.stdout)
        verdicts = [f["verdict"] for f in report["findings"]]
        self.assertTrue(set(verdicts) <= {"OK", "WARN", "FAIL", "SKIPPED"}, verdicts)
        self.assertEqual(report["failed"], verdicts.count("FAIL"))
        self.assertEqual(proc.returncode, 1 if report["failed"] else 0)
        for f in report["findings"]:
            self.assertTrue(f["evidence"], f)
            self.assertEqual(bool(f["fix"]), f["verdict"] in ("WARN", "FAIL"), f)
        items = [f["item"] for f in report["findings"]]
        self.assertIn("hugepages", items)
        if not any(i.startswith(("NUMA ", "PCIe link ")) for i in items):
            nics = [f for f in report["findings"] if f["item"] == "NICs"]
            self.assertEqual(len(nics), 1)
            self.assertEqual(nics[0]["verdict"], "SKIPPED")
        with open(textfile) as f:
            lines = [line for line in f.read().splitlines() if not line.startswith("#")]
        self.assertEqual(len(lines), len(items) + 1)
        self.assertEqual(lines[-1], "linerate_doctor_failed %d" % report["failed"])
        self.assertIn('linerate_doctor_check{item="hugepages",verdict="%s"} 1' % verdicts[items.index("hugepages")],
                      lines)

    def test_a_bad_address_is_refused(self):
        proc = self.doctor("3b:00")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("'3b:00' is not a PCI address (write it as 0000:3b:00.0 or 3b:00.0)", proc.stderr)

    def test_a_host_without_hugepages_fails_with_the_fix(self):
        root = os.path.join(self.dir, "root")
        os.makedirs(os.path.join(root, "proc"))
        with open(os.path.join(root, "proc", "meminfo"), "w") as f:
            f.write("HugePages_Total:       0\nHugePages_Free:        0\nHugepagesize:       2048 kB\n")
        profile = self.write_profile('[eal]\nlcores = "0-2"\n[[port]]\nname = "p0"\ndevice = "0000:3b:00.0"\n')
        proc = self.doctor("--root", root, "--profile", profile)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("FAIL     hugepages\n         HugePages_Free 0 of 0 (2048 kB pages, 0 MiB free) in /proc/meminfo\n"
                      "         fix: scripts/setup.sh reserves them", proc.stdout)
        self.assertIn("FAIL     port p0 (0000:3b:00.0)\n         no PCI device 0000:3b:00.0 in /sys/bus/pci/devices", proc.stdout)
        self.assertIn("SKIPPED  CPU frequency governor", proc.stdout)


if __name__ == "__main__":
    lrtest.main()
