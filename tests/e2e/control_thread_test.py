"""The control thread never blocks: while one session ends a run (a 2 s drain) and
another brings a link down and up, a third session is answered within 50 ms every time,
and the 100 ms link poll still sees the link go down during the drain."""
import json
import os
import shutil
import signal
import subprocess
import time
import unittest

import lrtest
import serve_test

# The service profile of serve_test (net_ring loopback, one paced stream) with a long drain.
PROFILE = serve_test.PROFILE.replace('drain = "100ms"', 'drain = "2s"')
assert 'drain = "2s"' in PROFILE


class ControlThread(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.sock_path = os.path.join(self.dir, "dp.sock")
        prefix = "lr-e2e-ct-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        profile = self.write_profile(PROFILE % (prefix, self.sock_path))
        self.proc = subprocess.Popen([lrtest.BINARY, "--config", profile, "--serve"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(self.stop_service)
        lrtest.wait_for_socket(self, self.proc, self.sock_path)

    def stop_service(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.communicate(timeout=30)

    def test_drain_and_link_wait_do_not_stall_other_sessions(self):
        stopper, linker, watcher = (lrtest.Client(self.sock_path) for _ in range(3))
        stopper.result("traffic.start")
        # Wait on the event, not a clock: frames have gone round the ring.
        while watcher.result("stats.streams")[0]["rx_packets"] < 1000:
            time.sleep(0.01)

        # Session 1 asks to end the run; its answer comes after the 2 s drain.
        stopper.file.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "traffic.stop"}) + "\n")
        stopper.file.flush()
        asked = time.monotonic()
        time.sleep(0.1)  # the stop has reached the data plane and its drain timer runs
        self.assertTrue(watcher.result("traffic.status")["running"], "the drain has not started")

        # Session 2 takes the link down; the 100 ms link poll must see it during the drain.
        # Protocol 1's port.set does it through ethdev without recording it (port.link.set
        # records its own change), so only the poll can put it in the link history.
        set_down = time.monotonic()
        self.assertFalse(linker.result("port.set", port="p0", link="down")["link_up"])
        latencies = []
        seen_down = None
        while time.monotonic() - set_down < 1.0 and seen_down is None:
            t0 = time.monotonic()
            self.assertEqual(watcher.result("hello", client="watcher")["server"], "linerate-dataplane")
            latencies.append(time.monotonic() - t0)
            events = watcher.result("port.link.history", port="p0")["events"]
            if any(not e["up"] and e["cause"] == "observed" for e in events):
                seen_down = time.monotonic() - set_down
            time.sleep(0.01)
        self.assertIsNotNone(seen_down, "the link poll did not see the link go down within 1 s")
        self.assertLess(seen_down, 0.3, "the link poll lost its 100 ms cadence")

        # Session 2 brings it up again: awaited on a timer, answered up.
        self.assertTrue(linker.result("port.set", port="p0", link="up")["link_up"])

        # Session 3 keeps being answered at once while the drain goes on.
        while time.monotonic() - asked < 1.7:
            t0 = time.monotonic()
            watcher.result("hello")
            latencies.append(time.monotonic() - t0)
            time.sleep(0.02)
        self.assertGreater(len(latencies), 20)
        self.assertLess(max(latencies), 0.050, "hello took %.1f ms during a drain" % (1000 * max(latencies)))

        # A second stop while the first drains is refused, not queued behind it.
        busy = linker.call("traffic.stop")
        self.assertIn("already ending", busy["error"]["message"])

        # Session 1's answer: the whole report, after the drain.
        reply = json.loads(stopper.file.readline())
        took = time.monotonic() - asked
        self.assertGreaterEqual(took, 2.0)
        self.assertLess(took, 5.0)
        stream = reply["result"]["streams"][0]
        self.assertGreater(stream["tx_packets"], 0)
        self.assertEqual(stream["lost"], 0)
        self.assertEqual(stream["rx_packets"], stream["tx_packets"])
        self.assertFalse(watcher.result("traffic.status")["running"])
        for c in (stopper, linker, watcher):
            c.close()


if __name__ == "__main__":
    lrtest.main()
