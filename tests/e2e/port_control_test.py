"""Port control against a real kernel netdev: a data plane serving an af_packet port on a
veth pair in a namespace this test makes and removes. The port's kernel backend is the
veth: its link state, its flaps (the peer taken down and up), its `ethtool -S` strings in
the merged counter view next to ethdev's per-run counts, and the clear "not supported"
errors for what veth lacks (pause, FEC, PFC, module EEPROM, link speed).

    [linerate port a] lpa ==veth== lpb
"""
import json
import os
import shutil
import subprocess
import threading
import time
import unittest

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "200ms"
[control]
socket = "%s"
[[port]]
name = "a"
device = "net_af_packet0,iface=lpa"
speed = "1G"
[[stream]]
name = "out"
tx_port = "a"
frame_size = 128
rate = "20kpps"
count = 1000
"""


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip") and shutil.which("ethtool"),
                     "needs root, iproute2 and ethtool")
class VethPortControl(lrtest.NetnsServiceCase):
    def setUp(self):
        super().setUp()
        self.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        self.nsexec("ip", "link", "add", "lpa", "type", "veth", "peer", "name", "lpb")
        for dev in ("lpa", "lpb"):
            self.nsexec("ip", "link", "set", dev, "up")
        self.start_service(PROFILE)

    def wait_for_event(self, up):
        for _ in range(50):
            events = self.client.result("port.link.history", port="a")["events"]
            if events[-1]["up"] == up:
                return events
            time.sleep(0.1)
        self.fail("no link %s event in %s" % ("up" if up else "down", events))

    def test_link_state_and_flaps_come_from_the_veth(self):
        link = json.loads(self.cli("--json", "link", "a").stdout)
        self.assertEqual((link["backend"], link["netdev"], link["up"], link["speed_mbps"]), ("kernel", "lpa", True, 10000))
        self.nsexec("ip", "link", "set", "lpb", "down")  # the far end goes away: lpa loses carrier
        down = self.wait_for_event(False)
        self.assertEqual(down[-1]["cause"], "observed")
        self.assertFalse(self.client.result("port.link", port="a")["up"])
        self.nsexec("ip", "link", "set", "lpb", "up")
        events = self.wait_for_event(True)
        self.assertEqual([e["up"] for e in events], [True, False, True])
        history = self.cli("link", "a", "--history")
        self.assertEqual(history.returncode, 0, history.stderr)
        self.assertEqual(len(history.stdout.strip().splitlines()), 4)  # header + three events
        self.assertIn(" down ", history.stdout)

    def test_link_down_goes_through_the_netdev_and_is_put_back(self):
        # af_packet has no ethdev link up / down: the netdev's administrative state serves.
        text = self.cli("link", "a")
        self.assertIn("  supported:  none reported\n  advertised: none reported\n", text.stdout)
        down = self.cli("--json", "link", "a", "--down")
        self.assertEqual(down.returncode, 0, down.stderr)
        self.assertEqual((json.loads(down.stdout)["backend"], json.loads(down.stdout)["up"]), ("kernel", False))
        flags = subprocess.run(["ip", "-n", self.ns, "-j", "link", "show", "lpa"], capture_output=True, text=True).stdout
        self.assertNotIn("UP", json.loads(flags)[0]["flags"])
        # The listing says so too: the netdev's carrier, not af_packet's ethdev link (always up).
        self.assertFalse(self.client.result("port.list")[0]["link_up"])
        self.assertRegex(self.cli("ports").stdout, r"\na\s+net_af_packet0,iface=lpa\s+net_af_packet\s+0\s+down\s")
        self.assertIn("  port a: admin up -> down: put back when the data plane exits\n",
                      self.cli("port", "settings", "a").stdout)
        self.stop_service()
        flags = subprocess.run(["ip", "-n", self.ns, "-j", "link", "show", "lpa"], capture_output=True, text=True).stdout
        self.assertIn("UP", json.loads(flags)[0]["flags"])

    def test_merged_counters_hold_the_veths_ethtool_strings_and_per_run_counts(self):
        self.client.result("traffic.start")
        for _ in range(100):
            if self.client.result("traffic.status")["tx_finished"]:
                break
            time.sleep(0.05)
        stopped = self.client.result("traffic.stop")
        in_report = {(c["source"], c["name"]): c for c in self.port(stopped, "a")["nic_counters"]}
        self.assertEqual(in_report[("ethdev", "opackets")]["value"], 1000)  # the run's report carries them too
        view = json.loads(self.cli("--json", "xstats", "a").stdout)
        self.assertEqual(view["netdev"], "lpa")
        ethtool = subprocess.run(["ip", "netns", "exec", self.ns, "ethtool", "-S", "lpa"], capture_output=True,
                                 text=True, check=True).stdout
        names = [line.split(":")[0].strip() for line in ethtool.splitlines()[1:] if ":" in line]
        self.assertEqual([c["name"] for c in view["counters"] if c["source"] == "ethtool"], names)
        by_key = {(c["source"], c["name"]): c for c in view["counters"]}
        sent = by_key[("ethdev", "opackets")]
        self.assertEqual(sent["canonical"], "tx_packets")
        self.assertEqual(sent["value"], 1000)  # this run: exactly the stream's count
        self.assertEqual(by_key[("xstats", "tx_good_packets")]["value"], 1000)
        table = self.cli("xstats", "a", "--filter", "tx_packets")
        self.assertRegex(table.stdout, r"tx_packets\s+opackets\s+ethdev\s+1000\s+")

    def test_a_one_shot_report_carries_the_links_flaps(self):
        self.nsexec("ip", "link", "add", "lqa", "type", "veth", "peer", "name", "lqb")
        for dev in ("lqa", "lqb"):
            self.nsexec("ip", "link", "set", dev, "up")

        def flap():
            time.sleep(1.0)
            self.nsexec("ip", "link", "set", "lqb", "down")
            time.sleep(0.5)
            self.nsexec("ip", "link", "set", "lqb", "up")
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/lr-oneshot-%d" % os.getpid(), True)
        flapper = threading.Thread(target=flap)
        flapper.start()
        proc, report = self.run_in_netns("""
[eal]
lcores = "0-1"
huge_pages = "off"
extra_args = ["--file-prefix", "lr-oneshot-%d"]
[run]
drain = "100ms"
[[port]]
name = "q"
device = "net_af_packet1,iface=lqa"
speed = "1G"
[[stream]]
name = "out"
tx_port = "q"
frame_size = 128
rate = "1kpps"
duration = "3s"
""" % os.getpid(), "--quiet")
        flapper.join()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        nic = {(c["source"], c["name"]): c for c in self.port(report, "q")["nic_counters"]}
        sent = self.stream(report, "out")["tx_packets"]
        self.assertGreater(sent, 2000)
        self.assertEqual(nic[("ethdev", "opackets")]["value"], sent)  # read after the drain, before the close
        self.assertEqual(nic[("ethdev", "opackets")]["canonical"], "tx_packets")
        self.assertIn(("ethtool", "peer_ifindex"), nic)
        events = self.port(report, "q")["link_events"]
        self.assertEqual([e["up"] for e in events], [True, False, True])
        self.assertEqual([e["cause"] for e in events], ["first seen", "observed", "observed"])
        self.assertRegex(proc.stdout, r"link changes:\n  \S+ q down \(observed\)\n  \S+ q up at 10000 Mb/s \(observed\)\n")

    def test_what_veth_lacks_is_refused_plainly(self):
        # Each names the operation once, the PMD and the netdev that lack it.
        expect = {
            ("pause", "a"): "pause get is not supported by net_af_packet on port 0 ('a'), nor by its kernel netdev "
                            "lpa (veth)",
            ("pause", "a", "--set", "rx"): "pause set is not supported by net_af_packet on port 0 ('a'), nor by its "
                                           "kernel netdev lpa (veth)",
            ("fec", "a", "--set", "rs"): "FEC set is not supported by net_af_packet on port 0 ('a'), nor by its "
                                         "kernel netdev lpa (veth)",
            ("pfc", "a"): "PFC get is not supported by net_af_packet on port 0 ('a'), nor by its kernel netdev lpa "
                          "(veth)",
            ("pfc", "a", "--set", "3"): "PFC set is not supported by net_af_packet on port 0 ('a'), nor by its "
                                        "kernel netdev lpa (veth)",
            ("module", "show", "a"): "module EEPROM read is not supported by net_af_packet on port 0 ('a'), nor by "
                                     "its kernel netdev lpa (veth)",
            ("link", "a", "--speed", "1G", "--autoneg", "off"):
                "link speed / autoneg set is not supported by net_af_packet on port 0 ('a'), nor by its kernel "
                "netdev lpa (veth)",
        }
        for args, message in expect.items():
            out = self.cli(*args)
            self.assertEqual(out.returncode, 1, args)
            self.assertIn(message, out.stderr, args)
            self.assertIn("(error -32003)", out.stderr, args)
        bad = self.cli("pfc", "a", "--set", "3,9")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--set '3,9': '9' is not a priority 0-7", bad.stderr)
        self.assertEqual(self.client.call("port.pfc.set", port="a", priorities=["3"])["error"]["message"],
                         "params.priorities: expected an array of integers 0-7, found \"3\"")
        # A port another session owns is not changed at all.
        self.client.result("session.acquire", ports=["a"])
        owned = self.cli("pause", "a", "--set", "rx")
        self.assertEqual(owned.returncode, 1)
        self.assertIn("port 'a' is owned by session", owned.stderr)
        self.assertIn("(error -32001)", owned.stderr)
        # Nothing changed: the link is as it was.
        link = self.client.result("port.link", port="a")
        self.assertEqual((link["up"], link["speed_mbps"], link["autoneg"]), (True, 10000, False))


if __name__ == "__main__":
    lrtest.main()
