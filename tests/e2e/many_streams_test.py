"""Thousands of streams on one lcore: 10,000 in 1 GiB (their frames from the port's shared
pool, [run] tx_buffers), every frame of every stream counted; and an lcore with more lanes
than it scans visiting each when due (its deadline schedule), which must still obey a
stream's hold, stop and rate change mid-run."""
import os
import re
import shutil
import subprocess
import time
import unittest

import lrtest

Client = lrtest.Client


def streams_toml(n, keys):
    return "".join('[[stream]]\nname = "s%d"\ntx_port = "p0"\nrx_port = "p0"\nframe_size = 64\n'
                   'ipv4 = { src = "198.18.%d.%d", dst = "198.19.0.1" }\n%s\n' % (i, i // 250, i % 250 + 1, keys)
                   for i in range(n))


def ring_profile(memory_mb, run_keys, speed):
    """A one-port profile on net_ring0 (its TX comes back on its RX) without hugepages."""
    return """
[eal]
lcores = "0-1"
memory_mb = %d
huge_pages = "off"
[run]
%s
[[port]]
name = "p0"
device = "net_ring0"
speed = "%s"
""" % (memory_mb, run_keys, speed)


class TenThousandStreams(lrtest.DataplaneCase):
    def test_ten_thousand_streams_fit_in_a_gib_and_every_frame_is_counted(self):
        """10,000 streams, 3 frames each, through net_ring's loopback in 1 GiB of memory: a
        pool each would take 70 GiB (and DPDK has memzones for ~800), so they share the
        port's, and each stream's frames are received, in order, none lost."""
        proc, report = self.run_dataplane(ring_profile(1024, 'drain = "200ms"\nlive = false', "40G") +
                                          streams_toml(10000, 'rate = "2kpps"\ncount = 3'), timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        self.assertIn("TX frames copied per frame from each stream's template into its port's shared pool: "
                      "10000 streams, more than the 256 that get a pool each", proc.stdout)
        self.assertIn("lcore 1 visits its TX lanes by deadline", proc.stdout)
        streams = report["streams"]
        self.assertEqual(len(streams), 10000)
        wrong = [(s["name"], s["tx_packets"], s["rx_packets"], s["lost"], s["out_of_order"], s["duplicate"])
                 for s in streams if (s["tx_packets"], s["rx_packets"], s["lost"], s["out_of_order"], s["duplicate"])
                 != (3, 3, 0, 0, 0)]
        self.assertEqual(wrong, [])
        self.assertEqual(report["mbufs_not_returned"], 0)

    def test_a_profile_that_asks_a_pool_per_stream_beyond_the_memory_is_told_the_most_it_holds(self):
        proc, _report = self.run_dataplane(ring_profile(256, 'tx_buffers = "per_stream"', "10G") +
                                           streams_toml(300, 'rate = "1kpps"\ncount = 1'))
        self.assertEqual(proc.returncode, 1, proc.stderr)
        ran_out = re.search(r"stream 's(\d+)' \(stream (\d+) of 300\): TX mempool of 16383 mbufs .*; the (\d+) streams "
                            r"before it hold .*so this host holds at most (\d+) streams of this profile", proc.stderr)
        self.assertIsNotNone(ran_out, proc.stderr)
        refused, position, held, most = map(int, ran_out.groups())
        self.assertEqual((position, held, most), (refused + 1, refused, refused))
        self.assertGreater(held, 0)


class ScheduledLanes(lrtest.DataplaneCase):
    """100 streams on one lcore: more lanes than it scans, so it visits them by deadline."""

    def setUp(self):
        super().setUp()
        self.sock_path = os.path.join(self.dir, "dp.sock")
        prefix = "lr-e2e-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        profile = self.write_profile(lrtest.RING_SERVICE % (prefix, self.sock_path) +
                                     streams_toml(100, 'rate = "2kpps"'))
        self.proc, self.client = self.serve(profile, self.sock_path)

    def tx(self, name):
        return next(s for s in self.client.result("stats.streams") if s["name"] == name)["tx_packets"]

    def test_hold_stop_and_rate_change_reach_a_scheduled_lane(self):
        plan = self.client.result("run.plan")
        self.assertEqual(plan["scheduled_lcores"], [1])
        # 100 pools of 7 MiB do not fit in three quarters of the service's 512 MiB.
        self.assertEqual(plan["tx_buffers"]["mode"], "shared")
        self.assertRegex(plan["tx_buffers"]["why"], r"^a pool per stream would take 700\.0 MiB of the \d+\.\d MiB free$")
        self.client.result("traffic.start")
        # An event awaited, as below: under ASan on a busy 2-CPU host the first 100 frames of a
        # lane among 100 took more than 20 s once (a fresh-root CI run: a timeout, no count wrong).
        lrtest.wait_for_frames(self.client, stream="s3", tx=100, timeout=90)
        self.client.result("stream.hold", stream="s0", held=True)
        self.client.result("stream.stop", stream="s1")
        self.assertEqual(self.client.result("stream.rate.set", stream="s2", rate="100pps")["target_pps"], 100.0)
        time.sleep(0.1)  # the requests applied: from here the held and stopped lanes send nothing
        held, stopped, slowed, t0 = self.tx("s0"), self.tx("s1"), self.tx("s2"), time.monotonic()
        # Time for every other lane to send: under ASan the lcore serves its 100 lanes at ~100 pps
        # each, not 2 kpps (an event awaited, not a rate: the wait may be long).
        lrtest.wait_for_frames(self.client, stream="s3", tx=self.tx("s3") + 200, timeout=90)
        self.assertEqual(self.tx("s0"), held)
        self.assertEqual(self.tx("s1"), stopped)
        # An upper bound only (CI never asserts that a rate was reached): 100 pps from here on.
        # A lane the host held back catches up (pacer_max_lag) and may pass it: judged after
        # the run, on the run's own stall log.
        slowed_sent, slowed_allowed = self.tx("s2") - slowed, 100 * (time.monotonic() - t0) + 2
        self.client.result("stream.hold", stream="s0", held=False)
        lrtest.wait_for_frames(self.client, stream="s0", tx=held + 50)
        report = self.client.result("traffic.stop")
        by_name = {s["name"]: s for s in report["streams"]}
        self.assertEqual(by_name["s1"]["tx_packets"], stopped)
        self.assertEqual([c["target_pps"] for c in by_name["s2"]["rate_changes"]], [2000.0, 100.0])
        for s in report["streams"]:
            self.assertEqual((s["name"], s["rx_packets"], s["lost"]), (s["name"], s["tx_packets"], 0))
        if slowed_sent > slowed_allowed:
            # One frame time at 100 pps: a lane held up that long is behind, and catches up.
            why = lrtest.host_spoiled(report, longest_us=10_000)
            if why is not None:
                self.skipTest("not judged: s2 sent %d frames against %.1f at 100 pps: %s" % (
                    slowed_sent, slowed_allowed, why))
        self.assertLessEqual(slowed_sent, slowed_allowed)


if __name__ == "__main__":
    lrtest.main()
