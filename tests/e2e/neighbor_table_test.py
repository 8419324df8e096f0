"""`linerate bench rfc2889`'s neighbour tests against a routed device: a network namespace
forwarding between two subnets with the kernel's own ARP. Its neighbour table's hard limit
is gc_thresh3, which Linux keeps for all namespaces at once (the root namespace's sysctl):
the test sets it to an odd number for the search to find, and puts it back.

    [port a] lra ==veth== ra 198.18.0.254/24 --\\  router namespace (ip_forward)
    [port b] lrb ==veth== rb 198.19.0.254/24 --/
    sender a[0]: 198.18.0.1/24           hosts b[0..79]: 198.19.0.1 .. 198.19.0.80 /24

neighbor_caching must find the limit (give or take the entries others hold that the kernel
cannot evict), each trial's loss on the right side of it; neighbor_reresolution must time
every host's first frame after the hosts' port's link came back.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import unittest

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

TABLE_LIMIT = 53  # gc_thresh3 for the test: odd, well below the 80 hosts
HOSTS = 80
THRESHOLDS = ["net.ipv4.neigh.default.gc_thresh%d" % i for i in (1, 2, 3)]

PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "200ms"
[[port]]
name = "a"
device = "net_af_packet0,iface=lra,qpairs=2"
rx_queues = 2
speed = "1G"
[[port]]
name = "b"
device = "net_af_packet1,iface=lrb,qpairs=2"
rx_queues = 2
speed = "1G"
[[device]]
name = "a"
port = "a"
mac = "02:00:00:00:0a:01"
ipv4 = { address = "198.18.0.1", prefix = 24, gateway = "198.18.0.254" }
[[device]]
name = "b"
port = "b"
mac = "02:00:00:00:0b:01"
count = %d
ipv4 = { address = "198.19.0.1", prefix = 24, gateway = "198.19.0.254" }
[rfc2889]
tests = ["neighbor_caching", "neighbor_reresolution"]
ports = ["a", "b"]
sender_device = "a"
hosts_device = "b"
host_rate = 2000
rest = "100ms"
reresolution_hosts = 8
reresolution_rate = 8000
link_down = "500ms"
"""


def sysctl(*args):
    return subprocess.run(["sysctl", *args], check=True, capture_output=True, text=True).stdout


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip") and shutil.which("sysctl"), "needs root, iproute2")
class NeighborTable(lrtest.RouterCase):
    def setUp(self):
        super().setUp()
        self.make_router([("lra", "ra", "198.18.0.254/24", "2001:db8:a::fe/64"),
                          ("lrb", "rb", "198.19.0.254/24", "2001:db8:b::fe/64")])
        # The limits are the whole machine's: put back whatever happens (a SIGTERM from the
        # test runner's timeout included, which would otherwise end Python without cleanups).
        before = [sysctl("-n", key).strip() for key in THRESHOLDS]
        self.addCleanup(sysctl, "-qw", *["%s=%s" % kv for kv in zip(THRESHOLDS, before)])
        previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))
        self.addCleanup(signal.signal, signal.SIGTERM, previous)
        sysctl("-qw", "%s=8" % THRESHOLDS[0], "%s=%d" % (THRESHOLDS[1], TABLE_LIMIT),
               "%s=%d" % (THRESHOLDS[2], TABLE_LIMIT))

    def test_the_table_limit_is_found_and_every_host_is_timed_after_a_flap(self):
        prefix = "lr-neigh-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        profile = self.write_profile(PROFILE % (prefix, HOSTS))
        out = os.path.join(self.dir, "out")
        proc = subprocess.run(["ip", "netns", "exec", self.ns, LINERATE, "bench", "rfc2889", profile,
                               "--report-dir", out], capture_output=True, text=True, timeout=240)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        caching, reresolution = report["results"]
        self.assertEqual((caching["test"], caching["verdict"], reresolution["test"], reresolution["verdict"]),
                         ("neighbor_caching", "measured", "neighbor_reresolution", "measured"), caching)

        # The limit, less at most the two entries of others the kernel may hold (the sender's,
        # the machine's own gateway) younger than its forced collection's 5 s.
        found = caching["hosts"]
        self.assertTrue(TABLE_LIMIT - 2 <= found <= TABLE_LIMIT, caching)
        self.assertEqual(caching["why"], "%d hosts forwarded to without loss, not %d" % (found, found + 1))
        trials = caching["trials"]
        self.assertEqual([t["addresses"] for t in trials[:2]], [HOSTS, 1])  # the search's ends first
        for t in trials:
            # Each trial on its side of the limit: all of its test frames arrived, or some were lost.
            self.assertNotIn("invalid", t)
            self.assertEqual(t["passed"], t["addresses"] <= found, t)
            self.assertEqual(t["lost_frames"] == 0, t["addresses"] <= found, t)
        self.assertIn(found + 1, [t["addresses"] for t in trials])
        self.assertEqual(caching["hosts_device"], "b")

        hosts = reresolution["reresolution"]
        self.assertEqual([h["host"] for h in hosts], ["b[%d]" % i for i in range(8)])
        self.assertEqual([h["address"] for h in hosts], ["198.19.0.%d" % (i + 1) for i in range(8)])
        self.assertEqual(reresolution["hosts_not_reresolved"], 0, reresolution)
        for h in hosts:
            # Forwarded again within a second of the link coming up. Of the 500 frames sent to it while
            # the link was down (1,000 frames/s each), the router queued what its unresolved entry
            # holds (unres_qlen_bytes) and sent them once it resolved the host again; the rest were lost.
            self.assertTrue(0 <= h["reresolved_ms"] < 1000, h)
            self.assertTrue(0 < h["lost_frames"] <= 600, h)
        self.assertEqual(reresolution["reresolved_max_ms"], max(h["reresolved_ms"] for h in hosts))
        self.assertEqual(reresolution["timeline_bin_ms"], 0.1)
        self.assertIn("8 of 8 hosts forwarded to again", reresolution["why"])
        # The page and the table show both.
        self.assertIn("neighbor_caching", proc.stdout)
        self.assertIn("%d hosts (%d hosts forwarded to without loss" % (found, found), proc.stdout)
        with open(os.path.join(out, "report.html")) as f:
            page = f.read()
        self.assertIn("forwarded again after (ms)", page)


if __name__ == "__main__":
    lrtest.main()
