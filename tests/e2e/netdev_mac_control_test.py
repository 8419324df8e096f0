"""MAC Control frames sent through a port's kernel netdev (mac_control_tx = "netdev"), the
fallback for a PMD that drops EtherType 0x8808 on transmit (i40e): af_packet ports on a
veth pair in a namespace this test makes and removes. The frames leave through an
AF_PACKET socket on the netdev, not through the PMD, and the other end counts them per
priority and by signature.

    [port a, PFC / PAUSE via netdev lra] lra ==veth== lrb [port b, counts them]
"""
import os
import shutil
import unittest

import lrtest

PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "300ms"
[[port]]
name = "a"
device = "net_af_packet0,iface=lra"
speed = "10G"
mac_control_tx = "%s"
[[port]]
name = "b"
device = "net_af_packet1,iface=lrb"
speed = "10G"
[[stream]]
name = "xoff"
tx_port = "a"
rx_port = "b"
kind = "pfc"
priorities = [3]
quanta = 1000
rate = "2kpps"
count = 300
[[stream]]
name = "pause"
tx_port = "a"
rx_port = "b"
kind = "pause"
quanta = 0
rate = "1kpps"
count = 100
"""


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip"), "needs root and iproute2")
class NetdevMacControl(lrtest.NetnsCase):
    def setUp(self):
        super().setUp()
        self.make_veth_pairs(("lra", "lrb"))

    def check_received(self, report):
        for name, frames in (("xoff", 300), ("pause", 100)):
            s = self.stream(report, name)
            self.assertEqual(s["tx_packets"], frames, name)
            self.assertEqual(s["rx_packets"], frames, name)
            self.assertEqual(s["lost"], 0, name)
            self.assertEqual(s["misdelivered"], 0, "port a does not hear its own frames: " + name)
        received = self.port(report, "b")["mac_control"]
        self.assertEqual((received["pfc_frames"], received["pause_frames"]), (300, 100))
        prio3 = [c for c in received["pfc"] if c["priority"] == 3][0]
        self.assertEqual((prio3["xoff"], prio3["quanta"]), (300, 300 * 1000))
        self.assertEqual(received["pause"]["xon"], 100)

    def test_frames_leave_through_the_netdev_and_arrive_whole(self):
        proc, report = self.run_in_netns(PROFILE % "netdev")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("    MAC Control TX: kernel netdev lra (AF_PACKET)\n", proc.stdout)
        self.check_received(report)
        # The kernel took every frame the lanes handed over; the PMD sent none of them.
        a = self.port(report, "a")
        self.assertEqual(a["mac_control_netdev"], {"netdev": "lra", "frames_sent": 400, "send_failures": 0,
                                                   "last_error": ""})
        self.assertEqual(a["opackets"], 0, "the PMD's own counters saw nothing")
        self.assertIn("port a: MAC Control frames sent through kernel netdev lra (AF_PACKET): 400 taken by the kernel, "
                      "0 refused", proc.stdout)
        self.assertEqual(report["mbufs_not_returned"], 0)

    def test_through_the_pmd_the_same_frames_arrive_and_the_netdev_is_not_used(self):
        proc, report = self.run_in_netns(PROFILE % "pmd")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("MAC Control TX:", proc.stdout)
        self.check_received(report)
        a = self.port(report, "a")
        self.assertNotIn("mac_control_netdev", a)
        self.assertEqual(a["opackets"], 400)

    def test_a_port_without_a_netdev_is_refused_at_the_stream(self):
        proc, report = self.run_in_netns(PROFILE.replace('"net_af_packet0,iface=lra"', '"net_null0"') % "netdev")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("key 'stream[0].kind': stream 'xoff': port 'a' (net_null) cannot send MAC Control frames: "
                      "mac_control_tx = \"netdev\", but the port has no kernel netdev beside its PMD (a bifurcated mlx5 "
                      "port or an af_packet port has one)", proc.stderr)


if __name__ == "__main__":
    lrtest.main()
