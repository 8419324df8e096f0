"""A start at one UTC instant on two data planes (traffic.start at_utc_ns): each arms its
lanes and begins at that instant on its own clock, and its report says the instant set and
when its first TX lcore began. Two data planes on net_null, their workers on the two CPUs
(lcores 0-1 and 0@1,1@0), driven by raw clients as a controller of several would drive
them; the instants it refuses (past, too far ahead, not an integer)."""
import json
import os
import shutil
import time
import unittest

import lrtest

PROFILE = """
[eal]
lcores = "%s"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "10ms"
[control]
socket = "%s"
[[port]]
name = "p0"
device = "net_null0"
speed = "10G"
[[stream]]
name = "s1"
tx_port = "p0"
frame_size = 128
rate = "100kpps"
count = 20000
"""

# What the host may spoil: a worker held up this long around the start began late by it.
STALL_US = 100
# How late after the instant a first burst may come on a host that did not hold it up.
LATE_NS = 200_000
AHEAD_NS = 300_000_000  # the instant asked: this far ahead of the client's clock


class SynchronisedStart(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.clients = []
        for i, lcores in enumerate(("0-1", "0@1,1@0")):
            prefix = "lr-e2e-sync%d-%d" % (i, os.getpid())
            self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
            sock = os.path.join(self.dir, "dp%d.sock" % i)
            profile = self.write_profile(PROFILE % (lcores, prefix, sock), "dp%d.toml" % i)
            self.clients.append(self.serve(profile, sock)[1])

    def start_both(self):
        at = time.time_ns() + AHEAD_NS
        for client in self.clients:
            self.assertEqual(client.result("traffic.start", at_utc_ns=at)["running"], True)
        for client in self.clients:
            lrtest.wait_until(lambda: not client.result("traffic.status")["running"] or
                              client.result("stats.streams")[0]["tx_packets"] == 20000, "all 20,000 frames sent")
        return at, [client.result("traffic.stop") for client in self.clients]

    def test_both_begin_at_the_instant_asked(self):
        at, reports = self.judged(self.start_both, report_of=lambda result: {
            "lcores": [l for r in result[1] for l in r["lcores"]]}, longest_us=STALL_US, window=(0, 0.001))
        firsts = []
        for report in reports:
            start = report["start"]
            self.assertEqual((start["asked_utc_ns"], start["start_utc_ns"]), (at, at))
            self.assertLess(start["tsc_utc_error_ns"], 10_000)
            late = start["first_tx_utc_ns"] - at
            self.assertGreaterEqual(late, 0, "began before the instant")
            self.assertLess(late, LATE_NS, "began %d ns after the instant" % late)
            self.assertEqual(report["streams"][0]["tx_packets"], 20000)
            firsts.append(start["first_tx_utc_ns"])
        print("first frames %d ns apart, %d and %d ns after the instant" % (
            abs(firsts[0] - firsts[1]), firsts[0] - at, firsts[1] - at), flush=True)

    def test_a_start_without_an_instant_says_when_it_began(self):
        client = self.clients[0]
        before = time.time_ns()
        client.result("traffic.start")
        lrtest.wait_until(lambda: client.result("stats.streams")[0]["tx_packets"] == 20000, "all frames sent")
        start = client.result("traffic.stop")["start"]
        self.assertIsNone(start["asked_utc_ns"])  # at once: no instant asked
        self.assertGreater(start["start_utc_ns"], before)
        self.assertGreaterEqual(start["first_tx_utc_ns"], start["start_utc_ns"])

    def test_instants_it_cannot_keep_are_refused(self):
        client = self.clients[0]
        past = client.call("traffic.start", at_utc_ns=time.time_ns() - 5_000_000)["error"]
        self.assertEqual(past["code"], -32602)
        self.assertRegex(past["message"], r"^at_utc_ns \d+ is [\d.]+ ms past on this data plane's clock \(\d+\): a "
                                          r"synchronised start is asked for an instant ahead of every data plane's clock")
        far = client.call("traffic.start", at_utc_ns=time.time_ns() + 70_000_000_000)["error"]["message"]
        self.assertRegex(far, r"is 70\.0 s ahead of this data plane's clock; at most 60 s \(its lanes spin until then\)")
        for bad in ("soon", 1.5, -1, True):
            error = client.call("traffic.start", at_utc_ns=bad)["error"]
            self.assertEqual((error["code"], error["message"]),
                             (-32602, "params.at_utc_ns: an integer count of nanoseconds since 1970-01-01T00:00:00Z"))
        self.assertFalse(client.result("traffic.status")["running"], "a refused start starts nothing")


if __name__ == "__main__":
    lrtest.main()
