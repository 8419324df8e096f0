"""Two data planes on two "hosts" and a controller on a third, as in a lab: each host a
network namespace of its own. The controller reaches the data planes over a management
network (a bridge, each host's veth on it with an address of its own), with mutual TLS and
certificates that name those addresses; the data planes' ports are the two ends of one veth
pair between the hosts (net_af_packet). A run over both counts every frame exactly, each
way; a data plane is named by a location map; plain TCP on a non-loopback address is refused.

    [mgmt: controller, br0 10.201.0.1] --veth-- [west: 10.201.0.2, dp on wd] ==veth== [east: dp on ed, 10.201.0.3]
                                       --veth--------------------------------------------^
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

import lrtest

PROFILE = """
[run]
drain = "200ms"
[[port]]
name = "west"
location = "west-dp;p0"
[[port]]
name = "east"
location = "east-dp;p0"
[[stream]]
name = "west-east"
tx_port = "west"
rx_port = "east"
frame_size = 128
rate = "20kpps"
count = 10000
[[stream]]
name = "east-west"
tx_port = "east"
rx_port = "west"
frame_size = 512
rate = "10kpps"
count = 5000
"""

SUBNET = "10.201.0."


@unittest.skipUnless(os.geteuid() == 0, "needs root (network namespaces)")
class EnginesOnTwoHosts(lrtest.DataplaneCase):
    def ns(self, role):
        return "lr-%s-%d" % (role, os.getpid())

    def nsexec(self, role, *cmd):
        lrtest.sh("ip", "netns", "exec", self.ns(role), *cmd)

    def setUp(self):
        super().setUp()
        for role in ("mgmt", "west", "east"):
            lrtest.sh("ip", "netns", "add", self.ns(role))
            self.addCleanup(lrtest.sh, "ip", "netns", "del", self.ns(role))
            # No IPv6: its ND and MLD frames would reach the data ports beside the streams.
            self.nsexec(role, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                        "net.ipv6.conf.default.disable_ipv6=1")
            self.nsexec(role, "ip", "link", "set", "lo", "up")
        self.nsexec("mgmt", "ip", "link", "add", "br0", "type", "bridge")
        self.nsexec("mgmt", "ip", "addr", "add", SUBNET + "1/24", "dev", "br0")
        self.nsexec("mgmt", "ip", "link", "set", "br0", "up")
        for i, role in enumerate(("west", "east"), start=2):
            # The host's management link: its end has the host's address, the other is on br0.
            self.nsexec("mgmt", "ip", "link", "add", "m-" + role, "type", "veth", "peer", "name", "mgmt0",
                        "netns", self.ns(role))
            self.nsexec("mgmt", "ip", "link", "set", "m-" + role, "master", "br0")
            self.nsexec("mgmt", "ip", "link", "set", "m-" + role, "up")
            self.nsexec(role, "ip", "addr", "add", SUBNET + "%d/24" % i, "dev", "mgmt0")
            self.nsexec(role, "ip", "link", "set", "mgmt0", "up")
        # The data link between the hosts: wd in west, ed in east.
        self.nsexec("west", "ip", "link", "add", "wd", "type", "veth", "peer", "name", "ed", "netns", self.ns("east"))
        self.nsexec("west", "ip", "link", "set", "wd", "up")
        self.nsexec("east", "ip", "link", "set", "ed", "up")
        self.certs = lrtest.make_engine_certs(self, names=(SUBNET + "2", SUBNET + "3"))
        self.engines, self.procs = [], []
        for i, (role, lcores, iface) in enumerate((("west", "0-1", "wd"), ("east", "0@1,1@0", "ed"))):
            prefix = "lr-e2e-hosts-%s-%d" % (role, os.getpid())
            self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
            sock = os.path.join(self.dir, "%s.sock" % role)
            profile = self.write_profile(lrtest.engine_profile(lcores, prefix, sock, "net_af_packet0,iface=" + iface,
                                                               "10G"), "%s.toml" % role)
            address, proc = lrtest.serve_engine(self, profile, self.certs, prefix=["ip", "netns", "exec", self.ns(role)],
                                                address=SUBNET + "%d:7300" % (i + 2), cert="engine-%d" % (i + 1))
            self.engines.append(address)
            self.procs.append(proc)
        for role, proc in zip(("west", "east"), self.procs):
            lrtest.wait_for_socket(self, proc, os.path.join(self.dir, "%s.sock" % role))
        self.locations = os.path.join(self.dir, "locations.json")
        with open(self.locations, "w") as f:
            json.dump([{"location": "west-dp", "endpoint": self.engines[0]},
                       {"location": "east-dp", "endpoint": self.engines[1]}], f)

    def controller(self, *args):
        """`linerate` on the management host."""
        return subprocess.run(["ip", "netns", "exec", self.ns("mgmt"), sys.modules["__main__"].LINERATE,
                               *lrtest.controller_args(self.certs), *args], capture_output=True, text=True, timeout=120)

    def test_a_run_between_two_hosts_counts_every_frame_each_way(self):
        report_file = os.path.join(self.dir, "report.json")
        run = self.controller("run", self.write_profile(PROFILE, "run.toml"), "--locations", self.locations,
                              "--report", report_file)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        with open(report_file) as f:
            report = json.load(f)
        streams = {s["name"]: s for s in report["streams"]}
        # TX from the sender's host, RX from the receiver's, over the management network.
        for name, count in (("west-east", 10000), ("east-west", 5000)):
            s = streams[name]
            self.assertEqual((s["tx_packets"], s["rx_packets"], s["lost"], s["duplicate"], s["out_of_order"]),
                             (count, count, 0, 0, 0), s)
        self.assertEqual([e["engine"] for e in report["engines"]], self.engines)
        ports = {p["name"]: p for p in report["ports"]}
        self.assertEqual(ports["west"]["opackets"], 10000)
        self.assertEqual(ports["east"]["opackets"], 5000)
        # Latency between the two is withheld: no PTP vouches for either clock.
        self.assertIn("latency_withheld", streams["west-east"])

    def test_plain_tcp_is_refused_off_loopback(self):
        profile = self.write_profile(lrtest.engine_profile("0-1", "lr-e2e-hosts-plain-%d" % os.getpid(),
                                                           os.path.join(self.dir, "plain.sock"), "net_null0", "10G"),
                                     "plain.toml")
        plain = subprocess.run(["ip", "netns", "exec", self.ns("west"), lrtest.BINARY, "--config", profile, "--serve",
                                "--listen", SUBNET + "2:7301", "--insecure"], capture_output=True, text=True, timeout=60)
        self.assertNotEqual(plain.returncode, 0)
        self.assertIn("plain TCP is served on a loopback address only", plain.stderr)


if __name__ == "__main__":
    lrtest.main()
