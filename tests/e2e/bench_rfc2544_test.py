"""RFC 2544 throughput against a reference linerate does not control: a Linux bridge in a
network namespace whose forward path drops what exceeds a known frame rate (an nftables
limit; its 100-frame burst lets the sender's 32-frame bursts through and adds at most
100 frames a trial). The throughput found at each frame size is that rate within 1 %.
Trials last a second here; a lab runs the same procedure for 60 s.

Why not a tbf shaper, as one would first reach for: in one namespace the frames a shaper
queues still count against the sending af_packet socket's buffer, so the kernel holds the
sender back instead of dropping (linerate then rightly reports its own TX as the limit,
not the device), and this kernel has no TC policer (act_police) or matchall classifier.

    [linerate port a] lra ==veth== bra -- br0 (limit 40000 frames/s) -- brb ==veth== lrb [linerate port b]
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

import lrtest

LIMIT_PPS = 40000
LINE_BPS = 100_000_000  # the ports' speed: percentages refer to it

NFT_LIMIT = """
table bridge lr_limit {
  chain forward {
    type filter hook forward priority 0; policy accept;
    limit rate over %d/second burst 100 packets drop
  }
}
""" % LIMIT_PPS

PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "200ms"
[[port]]
name = "a"
device = "net_af_packet0,iface=lra"
speed = "100M"
[[port]]
name = "b"
device = "net_af_packet1,iface=lrb"
speed = "100M"
[[stream]]
name = "a-to-b"
tx_port = "a"
rx_port = "b"
[rfc2544]
frame_sizes = [64, 128, 256]
trial_duration = "1s"
rest = "100ms"
resolution = 0.1
"""


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("nft"), "needs root and nftables")
class Rfc2544ThroughputThroughALimiter(lrtest.NetnsCase):
    def setUp(self):
        super().setUp()
        self.make_bridged_veths()
        subprocess.run(["ip", "netns", "exec", self.ns, "nft", "-f", "-"], input=NFT_LIMIT, check=True, text=True)

    def test_throughput_is_the_limiters_rate_at_each_frame_size(self):
        profile = self.write_profile(PROFILE)
        out_dir = os.path.join(self.dir, "out")
        linerate = sys.modules["__main__"].LINERATE
        env = dict(os.environ, LINERATE_SOCKET=os.path.join(self.dir, "nobody.sock"))
        proc = subprocess.run(["ip", "netns", "exec", self.ns, linerate, "bench", "rfc2544", profile, "--report-dir",
                               out_dir], capture_output=True, text=True, timeout=600, env=env)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        with open(os.path.join(out_dir, "report.json")) as f:
            report = json.load(f)
        self.assertEqual(report["schema"], "linerate.rfc2544/1")
        self.assertFalse(report["interrupted"])
        results = {r["frame_size"]: r for r in report["throughput"]}
        self.assertEqual(sorted(results), [64, 128, 256])
        for size, r in results.items():
            self.assertEqual(r["limited_by"], "device", r)
            self.assertAlmostEqual(r["pps"], LIMIT_PPS, delta=LIMIT_PPS * 0.01, msg="%d B: %s" % (size, r))
            line_pps = LINE_BPS / ((size + 20) * 8)
            self.assertAlmostEqual(r["percent_line_rate"], 100 * LIMIT_PPS / line_pps, delta=100 * 0.01 * LIMIT_PPS / line_pps)
            self.assertAlmostEqual(r["l2_bps"], r["pps"] * size * 8, delta=1)
        # Every trial is in the report with its exact counts; the first, at line rate, lost frames.
        trials = [t for t in report["trials"] if t["frame_size"] == 64]
        self.assertGreater(len(trials), 2)
        self.assertEqual(trials[0]["rate_percent"], 100)
        self.assertFalse(trials[0]["passed"])
        self.assertGreater(trials[0]["lost"], 0)
        self.assertEqual(trials[0]["tx_packets"] - trials[0]["lost"], trials[0]["rx_packets"])
        self.assertEqual(trials[0]["report"]["streams"][0]["tx_packets"], trials[0]["tx_packets"])
        self.assertIn("throughput (RFC 2544 §26.1, loss tolerance 0 %)", proc.stdout)
        # Progress: one line per trial; the first trial's forwarded rate is the second's offer.
        self.assertRegex(proc.stdout, r"^ +64 B  trial  1  offered +\d+\.\d+ % \(\d\.\d+ Mpps\)  loss \d+\.\d+ %  fail -> next ")
        self.assertAlmostEqual(trials[1]["rate_percent"], 100 * (1 - trials[0]["loss_percent"] / 100) *
                               trials[0]["offered_percent"] / 100, delta=0.01)

    def test_a_procedure_that_cannot_work_is_refused_before_traffic(self):
        bad = self.write_profile(PROFILE.replace("frame_sizes = [64, 128, 256]", "frame_sizes = [64, 40]"), "bad.toml")
        proc = subprocess.run([sys.modules["__main__"].LINERATE, "bench", "rfc2544", bad], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("key 'rfc2544.frame_sizes': 40 is out of range [64, 9600]", proc.stderr)
        later = self.write_profile(PROFILE.replace('frame_sizes', 'tests = ["back_to_back"]\nframe_sizes'), "later.toml")
        proc = subprocess.run([sys.modules["__main__"].LINERATE, "bench", "rfc2544", later], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("'back_to_back' is not built yet", proc.stderr)


if __name__ == "__main__":
    lrtest.main()
