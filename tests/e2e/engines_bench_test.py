"""The benchmark suites over two data planes: a profile whose ports are named by location,
port a on one data plane and port b on another, each serving TCP with mutual TLS, both
af_packet ports through the known device of bridge-dut.sh (a bridge that forwards 40000
frames/s). RFC 2544 throughput found through it is that rate, as on one data plane, every
trial's counts exact with TX from one data plane and RX from the other; a data plane that
goes away mid-suite stops the other at once and ends the suite with what was measured.

    [data plane 1, port a] lra ==veth== bra -- br0 (limit) -- brb ==veth== lrb [data plane 2, port b]
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

import lrtest

LIMIT_PPS = 40000
BRIDGE_DUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "bridge-dut.sh")

PROFILE = """
[run]
drain = "200ms"
[[port]]
name = "a"
location = "%s;p0"
[[port]]
name = "b"
location = "%s;p0"
[[stream]]
name = "a-to-b"
tx_port = "a"
rx_port = "b"
[rfc2544]
frame_sizes = [128]
tests = ["throughput"]
trial_duration = "500ms"
rest = "20ms"
resolution = 0.1
"""


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("nft"), "needs root and nftables")
class BenchOverEngines(lrtest.NetnsCase):
    def setUp(self):
        super().setUp()
        subprocess.run([BRIDGE_DUT, "up", "--netns", self.ns, "--rate", str(LIMIT_PPS), "--burst", "100"], check=True,
                       capture_output=True, text=True)
        self.nsexec("ip", "link", "set", "lo", "up")  # the controller reaches the data planes on 127.0.0.1
        self.certs = lrtest.make_engine_certs(self)
        self.engines, self.procs = [], []
        for i, (lcores, iface) in enumerate((("0-1", "lra"), ("0@1,1@0", "lrb"))):
            prefix = "lr-e2e-bench%d-%d" % (i, os.getpid())
            self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
            sock = os.path.join(self.dir, "dp%d.sock" % i)
            profile = self.write_profile(lrtest.engine_profile(lcores, prefix, sock, "net_af_packet0,iface=" + iface,
                                                               "100M"), "engine%d.toml" % i)
            address, proc = lrtest.serve_engine(self, profile, self.certs, prefix=["ip", "netns", "exec", self.ns])
            self.engines.append(address)
            self.procs.append(proc)
        for i, proc in enumerate(self.procs):
            lrtest.wait_for_socket(self, proc, os.path.join(self.dir, "dp%d.sock" % i))

    def bench(self, suite, out_dir, **popen):
        profile = self.write_profile(PROFILE % tuple(self.engines), "bench.toml")
        return subprocess.Popen(["ip", "netns", "exec", self.ns, sys.modules["__main__"].LINERATE,
                                 *lrtest.controller_args(self.certs), "bench", suite, profile, "--report-dir", out_dir],
                                **popen)

    def test_rfc2544_throughput_with_its_ports_on_two_data_planes(self):
        out_dir = os.path.join(self.dir, "out")
        proc = self.bench("rfc2544", out_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = proc.communicate(timeout=600)
        self.assertEqual(proc.returncode, 0, out + err)
        with open(os.path.join(out_dir, "report.json")) as f:
            report = json.load(f)
        result = report["throughput"][0]
        if result["limited_by"] == "tester":  # the host starved a data plane's lcore: said, never the device's
            self.skipTest("not judged: the tester could not offer %s%% of line rate (a host that held its lcore "
                          "up), so the device's throughput was not measured" % result["tester_limited_at_percent"])
        self.assertEqual(result["limited_by"], "device", result)
        self.assertAlmostEqual(result["pps"], LIMIT_PPS, delta=LIMIT_PPS * 0.01, msg=result)
        self.assertEqual([(p["tx_port"], p["rx_port"]) for p in result["per_pair"]], [("a", "b")])
        # Learning frames left port b, on the second data plane.
        self.assertEqual(report["learning_frames_sent"], 10)
        self.assertEqual([e["engine"] for e in report["engines"]], self.engines)
        trials = report["trials"]
        self.assertGreater(len(trials), 2)
        self.assertGreater(trials[0]["lost"], 0, "the first trial, at line rate, lost frames")
        for t in trials:
            # TX counted by the first data plane, RX by the second, joined by the stream's id.
            self.assertEqual(t["tx_packets"] - t["lost"], t["rx_packets"], t)
            stream = t["report"]["streams"][0]
            self.assertEqual((stream["tx_packets"], stream["rx_packets"]), (t["tx_packets"], t["rx_packets"]))
            self.assertEqual([e["engine"] for e in t["report"]["engines"]], self.engines)
            ports = {p["name"]: p for p in t["report"]["ports"]}
            self.assertEqual(ports["a"]["opackets"], t["tx_packets"])
            # (The bridge may pass the odd frame of its own to b: the port counts it, no stream does.)
            self.assertGreaterEqual(ports["b"]["ipackets"], t["rx_packets"])

    def test_a_data_plane_that_goes_away_stops_the_other_and_ends_the_suite(self):
        out_dir = os.path.join(self.dir, "lost")
        proc = self.bench("rfc2544", out_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        client = lrtest.Client(os.path.join(self.dir, "dp0.sock"))
        self.addCleanup(client.close)
        lrtest.wait_until(lambda: client.result("traffic.status")["running"] or proc.poll() is not None,
                          "the first trial")
        self.procs[1].kill()
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, out + err)
        self.assertIn("the benchmark stopped: the data plane at %s" % self.engines[1], err)
        with open(os.path.join(out_dir, "report.json")) as f:
            report = json.load(f)
        self.assertIn("the data plane at %s" % self.engines[1], report["stopped_by"])
        # The data plane that stayed was stopped at once: no traffic runs unattended.
        self.assertFalse(client.result("traffic.status")["running"])


if __name__ == "__main__":
    lrtest.main()
