"""A link event on the run's clock: a data plane serving two af_packet ports on a veth pair
in a namespace this test makes and removes, a stream from one to the other, and the
receiving port's link set down and up again over the control socket while the stream
goes on. The report's link events carry run_s, the seconds since the run's start on the
clock of its timelines, and the stream's timeline shows nothing received between them
(a veth whose peer is down delivers nothing).

    [linerate port a] lka ==veth== lkb [linerate port b]
"""
import os
import shutil
import time
import unittest

import lrtest

PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "200ms"
timeline = "10ms"
[control]
socket = "%s"
[[port]]
name = "a"
device = "net_af_packet0,iface=lka"
speed = "1G"
[[port]]
name = "b"
device = "net_af_packet1,iface=lkb"
speed = "1G"
[[stream]]
name = "a-to-b"
tx_port = "a"
rx_port = "b"
frame_size = 128
rate = "5kpps"
duration = "2s"
"""

BIN_S = 0.010
# How far the run's clock may run from the test's: the data plane counts seconds as TSC
# cycles at DPDK's tsc_hz, which DPDK measures and rounds to 10 MHz (up to 5 MHz off: 0.5%
# of a TSC of 1 GHz or more); the test's monotonic clock may be slewed 0.05% by NTP.
RATE_ERROR = 0.0055


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip"), "needs root and iproute2")
class LinkEventOnTheRunsClock(lrtest.NetnsServiceCase):
    def setUp(self):
        super().setUp()
        self.make_veth_pairs(("lka", "lkb"))
        self.start_service(PROFILE)

    def set_link(self, up):
        """port.link.set on b; the monotonic instants before the call and after its answer."""
        before = time.monotonic()
        link = self.client.result("port.link.set", port="b", up=up)
        after = time.monotonic()
        self.assertEqual((link["backend"], link["up"]), ("kernel", up))  # af_packet: the netdev's admin state
        return before, after

    def flapped_run(self):
        """A run whose receiving port goes down ~0.5 s after its start and up ~0.5 s later:
        (report, the start's call and answer, the down's, the up's), monotonic seconds."""
        started = time.monotonic()
        self.client.result("traffic.start")
        start = (started, time.monotonic())
        time.sleep(max(0.0, start[1] + 0.5 - time.monotonic()))
        down = self.set_link(False)
        self.assertFalse(self.client.result("port.list")[1]["link_up"])  # the wire's state, not ethdev's
        time.sleep(max(0.0, start[1] + 1.0 - time.monotonic()))
        up = self.set_link(True)
        lrtest.wait_until(lambda: self.client.result("traffic.status")["tx_finished"], "the stream to end")
        return self.client.result("traffic.stop"), start, down, up

    def test_link_events_carry_their_time_since_the_runs_start(self):
        setter = "set by session %d" % self.client.result("hello")["session"]
        # A frame the kernel queued before the link went down is read within a bin of it,
        # unless the host held the receiving lcore up longer than that around the flap.
        report, start, down, up = self.judged(self.flapped_run, report_of=lambda run: run[0],
                                              longest_us=BIN_S * 1e6, window=(0.4, 1.2))
        events = self.port(report, "b")["link_events"]
        # As first seen, and flapped by any run not judged (none with run_s), then this run's two.
        self.assertEqual((events[0]["up"], events[0]["cause"]), (True, "first seen"))
        self.assertEqual([(e["up"], e["cause"]) for e in events[-2:]], [(False, setter), (True, setter)])
        self.assertEqual([e for e in events[:-2] if "run_s" in e], [])
        down_s, up_s = events[-2]["run_s"], events[-1]["run_s"]
        # The lanes start at start_tsc, 10 ms after traffic.start reads the TSC, somewhere
        # between its call and its answer; each event between its own call and answer.
        for run_s, (called, answered) in ((down_s, down), (up_s, up)):
            self.assertGreaterEqual(run_s, (called - start[1] - 0.010) * (1 - RATE_ERROR))
            self.assertLessEqual(run_s, (answered - start[0] - 0.010) * (1 + RATE_ERROR))
        self.assertGreater(up_s, down_s + 0.3)
        self.assertLess(up_s, report["duration_s"])
        timeline = self.stream(report, "a-to-b")["timeline"]
        self.assertEqual(timeline["bin_s"], BIN_S)
        rx = timeline["rx"]
        # Bins wholly between the two events, a bin's margin after the down (for a frame read
        # late): nothing received.
        between = [i for i in range(len(rx)) if i * BIN_S >= down_s + BIN_S and (i + 1) * BIN_S <= up_s]
        self.assertGreater(len(between), 20)
        self.assertEqual([rx[i] for i in between], [0] * len(between))
        # Around them the stream was received: the timeline is not empty everywhere.
        self.assertGreater(sum(rx[i] for i in range(len(rx)) if (i + 1) * BIN_S <= down_s), 1000)
        self.assertGreater(sum(rx[i] for i in range(len(rx)) if i * BIN_S >= up_s), 1000)
        # The stream's longest silence, to the cycle, is the one the link made. On one clock
        # with the events, its end cannot precede the link up: an event is recorded as of
        # the set's call, and the veth delivers again only once the call has brought it up.
        gap = timeline["longest_rx_gap"]
        self.assertLessEqual(gap["from_s"], down_s + BIN_S)
        self.assertGreaterEqual(gap["to_s"], up_s)


if __name__ == "__main__":
    lrtest.main()
