"""The host as it was found after every exit: the hugepages a one-shot data plane used
are back (normal exit, SIGTERM, SIGKILL; a kill with files kept for secondary processes
is cleaned and reported by the next start, whatever its prefix), and the port settings
a profile or a command changed on a kernel netdev are put back unless kept.

    hugepages: net_ring0 loopback, its own file prefix
    settings:  [linerate port a] lra ==veth== lrb [linerate port b], in a namespace
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import unittest

import lrtest

HUGE_PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "on"
file_prefix = "%s"
memory_mb = 256
%s
[run]
drain = "100ms"
[[port]]
name = "p0"
device = "net_ring0"
speed = "10G"
[[stream]]
name = "loop"
tx_port = "p0"
rx_port = "p0"
rate = "1%%"
%s
"""


def hugepages_free():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("HugePages_Free:"):
                return int(line.split()[1])
    return 0


def hugetlbfs_mounts():
    with open("/proc/mounts") as f:
        return [fields[1] for fields in (line.split() for line in f) if fields[2] == "hugetlbfs"]


def files_of(prefix):
    pattern = re.compile(re.escape(prefix) + r"map_[0-9_]+$")
    return sum(1 for mount in hugetlbfs_mounts() for name in os.listdir(mount) if pattern.match(name))


@unittest.skipUnless(os.geteuid() == 0 and hugepages_free() >= 256 and hugetlbfs_mounts(),
                     "needs root, 256 free hugepages and a hugetlbfs mount (scripts/setup.sh)")
class Hugepages(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.prefix = "lr-leave-%d" % os.getpid()
        self.free_before = hugepages_free()
        self.assertEqual(files_of(self.prefix), 0)

    def profile(self, traffic, eal_extra="", prefix=None):
        return self.write_profile(HUGE_PROFILE % (prefix or self.prefix, eal_extra, traffic))

    def start(self, profile):
        proc = subprocess.Popen([lrtest.BINARY, "--config", profile, "-q", "--report", os.path.join(self.dir, "r.json")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        # Traffic runs once the plan is printed: the pages are mapped by then.
        lrtest.wait_until(lambda: "plan:" in proc.stdout.readline(), "the plan line")
        self.assertLess(hugepages_free(), self.free_before)
        return proc

    def assert_host_as_before(self):
        self.assertEqual(files_of(self.prefix), 0)
        self.assertEqual(hugepages_free(), self.free_before)

    def test_a_normal_exit_leaves_nothing(self):
        proc = subprocess.run([lrtest.BINARY, "--config", self.profile("count = 1000"), "-q"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assert_host_as_before()

    def test_sigterm_leaves_nothing_and_still_reports(self):
        proc = self.start(self.profile('duration = "60s"'))
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0)
        with open(os.path.join(self.dir, "r.json")) as f:
            self.assertTrue(json.load(f)["interrupted"])
        self.assert_host_as_before()

    def test_sigkill_leaves_nothing_with_unlinked_files(self):
        proc = self.start(self.profile('duration = "60s"'))
        proc.kill()
        proc.communicate(timeout=30)
        self.assert_host_as_before()

    def test_files_kept_for_secondary_processes_are_cleaned_by_the_next_start(self):
        proc = self.start(self.profile('duration = "60s"', eal_extra="huge_unlink = false"))
        left = files_of(self.prefix)
        self.assertGreater(left, 0)
        proc.kill()
        proc.communicate(timeout=30)
        self.assertEqual(files_of(self.prefix), left)  # SIGKILL: nobody removed them
        self.assertEqual(hugepages_free(), self.free_before - left)

        other = self.prefix + "-next"
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + other, True)
        nxt = subprocess.run([lrtest.BINARY, "--config", self.profile("count = 100", prefix=other), "-q"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(nxt.returncode, 0, nxt.stderr)
        self.assertIn("linerate-dataplane: removed %d stale hugepage files (%d MiB) of prefix '%s' (pid %d, no longer "
                      "running)" % (left, left * 2, self.prefix, proc.pid), nxt.stderr)
        self.assert_host_as_before()
        self.assertFalse(os.path.exists("/var/run/dpdk/" + self.prefix))


VETH_PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "100ms"
[control]
socket = "%s"
[[port]]
name = "a"
device = "net_af_packet0,iface=lra"
speed = "1G"
mtu = 1400
%s
[[port]]
name = "b"
device = "net_af_packet1,iface=lrb"
speed = "1G"
[[stream]]
name = "s"
tx_port = "a"
rx_port = "b"
rate = "1%%"
count = 100
"""


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip"), "needs root and iproute2")
class PortSettings(lrtest.NetnsCase):
    def setUp(self):
        super().setUp()
        self.nsexec("ip", "link", "add", "lra", "type", "veth", "peer", "name", "lrb")
        for dev in ("lra", "lrb"):
            self.nsexec("ip", "link", "set", dev, "up")

    def mtu(self, dev="lra"):
        out = subprocess.run(["ip", "-n", self.ns, "-j", "link", "show", dev], check=True, capture_output=True,
                             text=True).stdout
        return json.loads(out)[0]["mtu"]

    def profile(self, port_extra=""):
        return VETH_PROFILE % (os.path.join(self.dir, "dp.sock"), port_extra)

    def test_a_profile_mtu_is_put_back_at_exit(self):
        proc, report = self.run_in_netns(self.profile(), "-q")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.mtu(), 1500)
        self.assertNotIn("PROMISC", subprocess.run(["ip", "-n", self.ns, "link", "show", "lra"], capture_output=True,
                                                   text=True).stdout)
        self.assertEqual(self.port(report, "a")["settings_changed"],
                         [{"setting": "promiscuous", "before": "off", "set_to": "on", "keep": False,
                           "restore": "restored", "error": ""},
                          {"setting": "mtu", "before": "1500", "set_to": "1400", "keep": False, "restore": "restored",
                           "error": ""}])
        self.assertEqual([c["setting"] for c in self.port(report, "b")["settings_changed"]], ["promiscuous"])
        self.assertIn("port settings changed:\n  port a: promiscuous off -> on: restored\n"
                      "  port a: mtu 1500 -> 1400: restored\n  port b: promiscuous off -> on: restored\n",
                      proc.stdout)

    def test_keep_leaves_it_set(self):
        proc, report = self.run_in_netns(self.profile("keep = true"), "-q")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.mtu(), 1400)
        self.assertEqual([c["restore"] for c in self.port(report, "a")["settings_changed"]], ["kept", "kept"])
        self.assertEqual(self.port(report, "b")["settings_changed"][0]["restore"], "restored")

    def test_a_service_puts_back_what_commands_changed(self):
        sock = os.path.join(self.dir, "dp.sock")
        profile = self.write_profile(self.profile())
        proc = subprocess.Popen(["ip", "netns", "exec", self.ns, lrtest.BINARY, "--config", profile, "--serve", "-q"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        lrtest.wait_for_socket(self, proc, sock)
        linerate = [sys.modules["__main__"].LINERATE, "--socket", sock]
        self.assertEqual(self.mtu(), 1400)
        run = lambda *args: subprocess.run(linerate + list(args), capture_output=True, text=True, timeout=30)
        # The PMD's own reason comes back with the refusal, not only to the data plane's stderr.
        too_big = run("port-set", "a", "--mtu", "9000")
        self.assertEqual(too_big.returncode, 1)
        self.assertIn("port 'a': setting the MTU (the PMD says: Frame size (9018) > device max frame size (1518) for "
                      "port_id 0): Invalid argument", too_big.stderr)
        self.assertEqual(run("port-set", "b", "--mtu", "1300", "--keep").returncode, 0)
        self.assertEqual(run("port-set", "a", "--mtu", "1200").returncode, 0)
        self.assertEqual(self.mtu(), 1200)
        shown = run("port", "settings", "a")
        self.assertEqual(shown.stdout, "  port a: promiscuous off -> on: put back when the data plane exits\n"
                                       "  port a: mtu 1500 -> 1200: put back when the data plane exits\n")
        restored = run("port", "restore", "a")
        self.assertEqual(restored.returncode, 0, restored.stderr)
        self.assertEqual(restored.stdout, "  port a: promiscuous off -> on: restored\n  port a: mtu 1500 -> 1200: restored\n")
        self.assertEqual(self.mtu(), 1500)
        self.assertEqual(run("port-set", "a", "--mtu", "1100").returncode, 0)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0, err)
        self.assertEqual(self.mtu("lra"), 1500)
        self.assertEqual(self.mtu("lrb"), 1300)
        self.assertIn("port settings changed:\n  port a: promiscuous off -> on: restored\n"
                      "  port a: mtu 1500 -> 1100: restored\n"
                      "  port b: promiscuous off -> on: restored\n  port b: mtu 1500 -> 1300: kept\n", out)


if __name__ == "__main__":
    lrtest.main()
