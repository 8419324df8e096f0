"""The lossless plan over two data planes, against linerate's software switch run by one of
them: `west` holds the two senders, cabled to the switch in its own process; `east` holds
the receiver, joined to the switch's third port by net_memif. The plan's profile names the
ports by location and has the switch's [[switch]] table, which the controller checks against
the one `west` runs. Each case is judged on counts joined across the two data planes: TX
from west's senders, RX and the storm from east's receiver, the switch's own counters from
west. A switch set otherwise than the profile says is refused before any traffic.

    west: sender-a (cable:a) -- dut-a | switch 'dut' | dut-r (memif) == east: receiver (memif)
          sender-b (cable:b) -- dut-b |
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

import lrtest

PLAN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "config", "examples", "lossless_plan.toml")

# The example plan's switch, its receiver's port on net_memif (the server end) instead of a cable.
SWITCH = """[[switch]]
name = "dut"
lcore = 2
ports = [
  { name = "dut-a", device = "cable:a", speed = "10G" },
  { name = "dut-b", device = "cable:b", speed = "10G" },
  { name = "dut-r", device = "%s", speed = "10G" },
]
forward = { dut-a = "dut-r", dut-b = "dut-r" }
lossless = [3]
buffer = "4MB"
queue_limit = "400KB"
xoff = "%s"
xon = "500KB"
headroom = "4MB"
"""

WEST = """[eal]
lcores = "0@1,1@1,2@0"  # the switch alone on CPU 0, as in the example plan
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[control]
socket = "%s"
[[port]]
name = "p0"
device = "cable:a"
speed = "10G"
pfc_honour = true
[[port]]
name = "p1"
device = "cable:b"
speed = "10G"
pfc_honour = true
"""


def plan_profile(west, east, switch, cases):
    """The example plan with its ports by location and `switch` for its [[switch]]."""
    with open(PLAN) as f:
        text = f.read()
    body = text[text.index("[run]"):]
    ports = body[body.index("[[port]]"):body.index("# The frames' headers")]
    located = (ports.replace('device = "cable:a"', 'location = "%s;p0"' % west)
               .replace('device = "cable:b"', 'location = "%s;p1"' % west)
               .replace('device = "cable:r"', 'location = "%s;p0"' % east))
    body = body.replace(ports, located)
    body = body[:body.index("[[switch]]")] + switch + "\n" + body[body.index("[lossless]"):]
    return body.replace("[lossless]\n", "[lossless]\ncases = %s\n" % json.dumps(cases))


class LosslessOverEngines(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.certs = lrtest.make_engine_certs(self)
        memif = os.path.join(self.dir, "memif.sock")
        self.switch_port = "net_memif0,role=server,socket=%s,socket-abstract=no" % memif
        self.engines, self.procs = [], []
        for name in ("west", "east"):
            prefix = "lr-e2e-lossless-%s-%s" % (name, os.path.basename(self.dir))
            self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
            sock = os.path.join(self.dir, "%s.sock" % name)
            if name == "west":
                text = WEST % (prefix, sock) + SWITCH % (self.switch_port, "1MB")
            else:
                device = "net_memif0,role=client,socket=%s,socket-abstract=no" % memif
                text = lrtest.engine_profile("0@1,1@1", prefix, sock, device, "10G")
            profile = self.write_profile(text, "%s.toml" % name)
            address, proc = lrtest.serve_engine(self, profile, self.certs)
            self.engines.append(address)
            self.procs.append(proc)
            if name == "west":  # the memif client connects once, at its start: the server's socket first
                lrtest.wait_until(lambda: os.path.exists(memif) or proc.poll() is not None, "the memif socket")
        for name, proc in zip(("west", "east"), self.procs):
            lrtest.wait_for_socket(self, proc, os.path.join(self.dir, "%s.sock" % name))

    def bench(self, cases, xoff="1MB"):
        profile = self.write_profile(plan_profile(*self.engines, SWITCH % (self.switch_port, xoff), cases), "plan.toml")
        out = os.path.join(self.dir, "out")
        proc = subprocess.run([sys.modules["__main__"].LINERATE, *lrtest.controller_args(self.certs), "bench",
                               "lossless", profile, "--report-dir", out], capture_output=True, text=True, timeout=400)
        report = None
        if os.path.exists(os.path.join(out, "report.json")):
            with open(os.path.join(out, "report.json")) as f:
                report = json.load(f)
        return proc, report

    def test_the_plan_is_judged_on_counts_joined_across_two_data_planes(self):
        proc, report = self.bench(["pfc_pause", "incast"])
        self.assertIsNotNone(report, proc.stdout + proc.stderr)
        self.assertEqual([e["engine"] for e in report["engines"]], self.engines)
        cases = {c["case"]: c for c in report["cases"]}
        judged = [name for name, c in cases.items()
                  if not (c["verdict"] == "SKIPPED" and c["explanation"].startswith("not judged:"))]
        for name in set(cases) - set(judged):
            print("not judged, case %s: %s" % (name, cases[name]["explanation"]), flush=True)
        for name in judged:
            self.assertEqual(cases[name]["verdict"], "PASS", cases[name])
        self.assertEqual(proc.returncode, 0 if len(judged) == len(cases) else 6, proc.stdout + proc.stderr)
        for trial in report["trials"]:
            run = trial["report"]
            # The switch's counters come from west, the data plane that runs it.
            (sw,) = run["switches"]
            self.assertEqual(sw["name"], "dut")
            egress = {p["name"]: p for p in sw["ports"]}["dut-r"]
            forwarded = sum(c["tx_frames"] for c in egress["priorities"])
            streams = {s["name"]: s for s in run["streams"]}
            # What the switch sent out of dut-r is what east's receiver counted of the test
            # streams (the storm goes the other way).
            received = sum(s.get("rx_packets", 0) for name, s in streams.items() if name != "storm")
            self.assertEqual(forwarded, received, trial["case"])
            # Each stream's timeline, its TX bins from its sender and its RX bins from its
            # receiver: the plan's [run] (timeline = "10us") is each data plane's, not their own
            # profiles' (which have none). Without it a tester that stalled looks like a device
            # that dropped.
            for s in run["streams"]:
                self.assertEqual(sum(s["timeline"]["tx"]), s["tx_packets"], s["name"])
                if s.get("rx_port"):
                    self.assertEqual(sum(s["timeline"]["rx"]), s["rx_packets"], s["name"])
            if trial["case"] == "incast" and not trial["invalid_reason"]:
                # Priority 3 lost nothing: sent by west, received by east, joined by stream id.
                for sender in ("sender-a", "sender-b"):
                    s = streams["lossless-" + sender]
                    self.assertGreater(s["tx_packets"], 0)
                    self.assertEqual(s["tx_packets"], s["rx_packets"], s)
        if "pfc_pause" in judged:
            # The storm went out of east's receiver and paused the switch on west: its count
            # in the comparison lines, as the switch's port dut-r counted PFC frames in.
            (run,) = [t["report"] for t in report["trials"] if t["case"] == "pfc_pause" and not t["invalid_reason"]]
            storm = {s["name"]: s for s in run["streams"]}["storm"]["tx_packets"]
            self.assertGreater(storm, 0)
            self.assertIn("'storm': %d PFC / PAUSE frames sent to the device from 'receiver'" % storm,
                          cases["pfc_pause"]["compare_with_dut"][0])
            (sw,) = run["switches"]
            self.assertEqual({p["name"]: p for p in sw["ports"]}["dut-r"]["rx_mac_control"], storm)

    def test_a_switch_set_otherwise_than_the_profile_is_refused_before_traffic(self):
        proc, report = self.bench(["pfc_pause"], xoff="2MB")
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertIn("linerate: the profile's ports and switches are not set as its data planes' are:\n"
                      "  switch 'dut' (the data plane at %s): xoff is 2000000 in the profile, 1000000 in the data "
                      "plane\n" % self.engines[0], proc.stderr)
        self.assertIsNone(report)
        client = lrtest.Client(os.path.join(self.dir, "west.sock"))
        self.addCleanup(client.close)
        ports = client.result("stats.ports")
        self.assertEqual(sorted(p["name"] for p in ports), ["p0", "p1"])
        self.assertEqual([p["opackets"] for p in ports], [0, 0], "no traffic ran")


if __name__ == "__main__":
    lrtest.main()
