"""linerate capture: what a port receives, filtered, into a pcapng file that tshark reads
back frame for frame (sizes, VLAN / UDP fields, the comment with stream and sequence
number, nanosecond timestamps inside the run, the interface's name, driver and speed),
ended by Ctrl-C, its count or its session; bad filters, paths and ports refused first."""
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
import unittest

import lrtest

PROFILE = lrtest.RING_SERVICE + """[[stream]]
name = "tagged"
tx_port = "p0"
rx_port = "p0"
frame_size = 128
rate = "20kpps"
count = 2000
vlan = { id = 100, pcp = 3 }
udp = { dst = 7000 }
[[stream]]
name = "plain"
tx_port = "p0"
rx_port = "p0"
frame_size = 256
rate = "20kpps"
count = 2000
"""

LINERATE = None  # the CLI: lrtest.main sets it from the second argument
Client = lrtest.Client
FILTER = "vlan 100 and udp dst port 7000"


def tshark_fields(path, *fields):
    out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-E", "separator=|"] +
                         [a for f in fields for a in ("-e", f)], capture_output=True, text=True, check=True).stdout
    return [line.split("|") for line in out.splitlines()]


class Capture(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.sock_path = os.path.join(self.dir, "dp.sock")
        self.prefix = "lr-e2e-cap-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + self.prefix, True)
        profile = self.write_profile(PROFILE % (self.prefix, self.sock_path))
        self.proc, self.client = self.serve(profile, self.sock_path)

    def cli(self, *args):
        return subprocess.run([LINERATE, "--socket", self.sock_path, *args], capture_output=True, text=True, timeout=60)

    def background_capture(self, *args):
        proc = subprocess.Popen([LINERATE, "--socket", self.sock_path, "capture", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is not None or proc.kill())
        lrtest.wait_until(lambda: any(c["state"] == "capturing" for c in self.client.result("capture.list")),
                          "the capture started")
        return proc

    def run_traffic(self):
        self.client.result("traffic.start")
        lrtest.wait_until(lambda: self.client.result("traffic.status")["tx_finished"], "both streams sent")
        return self.client.result("traffic.stop")

    def test_the_file_holds_what_the_stream_sent(self):
        path = os.path.join(self.dir, "tagged.pcapng")
        proc = self.background_capture("p0", "-w", path, "--filter", FILTER)
        before = time.time()
        report = self.run_traffic()
        after = time.time()
        self.assertEqual([(s["name"], s["rx_packets"], s["lost"]) for s in report["streams"]],
                         [("tagged", 2000, 0), ("plain", 2000, 0)])
        lrtest.wait_until(lambda: self.client.result("capture.list")[0]["captured"] == 2000, "2000 frames written")
        proc.send_signal(signal.SIGINT)  # Ctrl-C: the file is complete when it returns
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("capture 1 on p0: 2000 frames matched, 2000 written", out)
        self.assertIn("0 dropped; done: stopped", out)
        frames = tshark_fields(path, "frame.len", "vlan.id", "vlan.priority", "udp.dstport", "frame.comment",
                               "frame.time_epoch", "frame.interface_name", "frame.interface_description")
        self.assertEqual(len(frames), 2000)  # the other stream's 2000 are not in it
        self.assertEqual({tuple(f[:4]) for f in frames}, {("124", "100", "3", "7000")})  # 128 B less the FCS
        comments = [re.fullmatch(r"stream tagged lane 0 seq (\d+) latency (\d+) ns", f[4]) for f in frames]
        self.assertTrue(all(comments), frames[0][4])
        self.assertEqual(sorted(int(m.group(1)) for m in comments), list(range(2000)))
        times = [float(f[5]) for f in frames]
        self.assertEqual(times, sorted(times))
        self.assertGreaterEqual(times[0], before - 0.01)
        self.assertLessEqual(times[-1], after + 0.01)
        self.assertEqual({(f[6], f[7]) for f in frames}, {("p0", "net_ring0 (driver net_ring)")})
        info = subprocess.run(["capinfos", path], capture_output=True, text=True).stdout
        self.assertRegex(info, r"Speed = 10000000000")
        self.assertRegex(info, r"Time precision = nanoseconds")

    def test_both_directions_each_frame_marked(self):
        path = os.path.join(self.dir, "both.pcapng")
        proc = self.background_capture("p0", "-w", path, "--direction", "both", "--filter", FILTER)
        self.run_traffic()
        lrtest.wait_until(lambda: self.client.result("capture.list")[0]["captured"] == 4000, "4000 frames written")
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
        # net_ring loops the port back to itself: each frame of the tagged stream, sent and received.
        frames = tshark_fields(path, "frame.packet_flags_direction", "frame.comment")
        self.assertEqual(len(frames), 4000)
        sent = [f[1] for f in frames if int(f[0], 0) == 2]  # outbound
        received = [f[1] for f in frames if int(f[0], 0) == 1]  # inbound
        self.assertEqual(sorted(int(re.fullmatch(r"sent: stream tagged lane 0 seq (\d+)", c).group(1)) for c in sent),
                         list(range(2000)))
        self.assertEqual(len([c for c in received if c.startswith("stream tagged lane 0 seq ")]), 2000)
        self.assertEqual(self.client.call("capture.start", port="p0", file="/tmp/x.pcapng", direction="tx",
                                          trigger="loss", trigger_stream="tagged")["error"]["message"],
                         "params.direction: a trigger watches what the port receives: direction rx (the default)")

    def test_a_count_ends_it_and_its_session_ends_it_too(self):
        path = os.path.join(self.dir, "ten.pcapng")
        proc = self.background_capture("p0", "-w", path, "--count", "10")
        self.run_traffic()
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0, err)
        self.assertIn("10 written", out)
        self.assertIn("done: 10 frames captured", out)
        self.assertEqual(len(tshark_fields(path, "frame.len")), 10)
        # A capture a session started ends with it: its file is complete.
        other = Client(self.sock_path)
        started = other.result("capture.start", port="p0", file=os.path.join(self.dir, "session.pcapng"))
        self.assertEqual(started["state"], "capturing")
        other.close()
        lrtest.wait_until(lambda: [c["state"] for c in self.client.result("capture.list") if c["id"] == started["id"]]
                          == ["done: its session ended"], "the capture ended with its session")
        self.assertEqual(tshark_fields(os.path.join(self.dir, "session.pcapng"), "frame.len"), [])

    def test_mac_control_frames_are_captured_and_dissect_as_pfc(self):
        self.client.result("stream.load", streams=[{"name": "xoff", "tx_port": "p0", "rx_port": "p0", "kind": "pfc",
                                                    "priorities": [3], "quanta": 1000, "rate": "1kpps", "count": 20}])
        path = os.path.join(self.dir, "pfc.pcapng")
        proc = self.background_capture("p0", "-w", path, "--filter", "ether proto 0x8808", "--count", "20")
        self.run_traffic()
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0, err)
        frames = tshark_fields(path, "eth.dst", "macc.opcode", "macc.cbfc.enbv", "macc.cbfc.pause_time.c3",
                               "frame.comment")
        self.assertEqual(len(frames), 20)
        self.assertEqual({tuple(f[:4]) for f in frames}, {("01:80:c2:00:00:01", "0x0101", "0x0008", "1000")})
        self.assertEqual(sorted(int(re.search(r"seq (\d+) ", f[4]).group(1)) for f in frames), list(range(20)))

    def test_a_capture_that_cannot_keep_up_drops_copies_never_traffic(self):
        # The file is a pipe nobody reads yet: the writer blocks, the records run out.
        fifo = os.path.join(self.dir, "slow.pcapng")
        os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.addCleanup(os.close, reader)
        self.client.result("stream.load", streams=[{"name": "burst", "tx_port": "p0", "rx_port": "p0",
                                                    "frame_size": 128, "rate": "100kpps", "count": 20000}])
        started = self.client.result("capture.start", port="p0", file=fifo)
        report = self.run_traffic()
        self.assertEqual([(s["rx_packets"], s["lost"]) for s in report["streams"]], [(20000, 0)])
        listed = [c for c in self.client.result("capture.list") if c["id"] == started["id"]][0]
        self.assertEqual(listed["matched"], 20000)
        self.assertGreater(listed["capture_dropped"], 0)
        # Read the pipe to its end while the capture stops: what it wrote is a whole file.
        data = bytearray()
        drained = threading.Event()

        def read_all():
            os.set_blocking(reader, True)
            while chunk := os.read(reader, 1 << 16):
                data.extend(chunk)
            drained.set()
        threading.Thread(target=read_all, daemon=True).start()
        stopped = self.client.result("capture.stop", id=started["id"])
        self.assertTrue(drained.wait(30))
        self.assertEqual(stopped["captured"] + stopped["capture_dropped"], 20000)
        copy = os.path.join(self.dir, "copy.pcapng")
        with open(copy, "wb") as f:
            f.write(data)
        self.assertEqual(len(tshark_fields(copy, "frame.len")), stopped["captured"])
        info = subprocess.run(["capinfos", copy], capture_output=True, text=True).stdout
        self.assertIn("Number of packets = %d" % stopped["captured"], info)

    def test_a_profiles_capture_runs_with_its_run_and_the_report_lists_it(self):
        path = os.path.join(self.dir, "profile.pcapng")
        capture = '[[capture]]\nport = "p0"\nfile = "%s"\nfilter = "%s"\n' % (path, FILTER)
        profile = self.write_profile(PROFILE % (self.prefix, self.sock_path) + capture, "with-capture.toml")
        report_file = os.path.join(self.dir, "run.json")
        run = self.cli("run", profile, "--report", report_file)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(report_file) as f:
            listed = json.load(f)["captures"]
        self.assertEqual([(c["port"], c["filter"], c["matched"], c["captured"], c["capture_dropped"], c["state"])
                          for c in listed], [("p0", FILTER, 2000, 2000, 0, "done: stopped")])
        self.assertEqual(len(tshark_fields(path, "frame.len")), 2000)
        # One-shot, the data plane runs the profile's captures itself.
        oneshot_path = os.path.join(self.dir, "oneshot.pcapng")
        proc, report = self.run_dataplane(
            (PROFILE % ("lr-e2e-cap1-%d" % os.getpid(), self.sock_path + "1")).replace('net_ring0', 'net_ring1') +
            capture.replace(path, oneshot_path) + 'count = 100\n')
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/lr-e2e-cap1-%d" % os.getpid(), True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([(c["captured"], c["state"]) for c in report["captures"]], [(100, "done: 100 frames captured")])
        self.assertEqual(len(tshark_fields(oneshot_path, "frame.len")), 100)
        os.remove(os.path.join(self.dir, "report.json"))  # the last run's
        bad, bad_report = self.run_dataplane((PROFILE % ("lr-e2e-cap2-%d" % os.getpid(), self.sock_path + "2"))
                                    .replace('net_ring0', 'net_ring2') + capture.replace(FILTER, "udp port x"))
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/lr-e2e-cap2-%d" % os.getpid(), True)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("filter 'udp port x': ", bad.stderr)
        self.assertIsNone(bad_report)  # no run began

    def test_bad_filters_paths_and_ports_are_refused_before_it_starts(self):
        bad = self.cli("capture", "p0", "-w", os.path.join(self.dir, "x.pcapng"), "--filter", "udp dst port seven")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("linerate: filter 'udp dst port seven': ", bad.stderr)  # libpcap's own words follow
        self.assertFalse(os.path.exists(os.path.join(self.dir, "x.pcapng")))
        bad = self.cli("capture", "p0", "-w", "/nonexistent/x.pcapng")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("cannot write the capture file /nonexistent/x.pcapng: No such file or directory", bad.stderr)
        bad = self.cli("capture", "p9", "-w", os.path.join(self.dir, "y.pcapng"))
        self.assertEqual(bad.returncode, 1)
        self.assertIn("'p9'", bad.stderr)
        self.assertEqual(self.client.result("capture.list"), [])
        first = self.client.result("capture.start", port="p0", file=os.path.join(self.dir, "one.pcapng"))
        second = self.client.call("capture.start", port="p0", file=os.path.join(self.dir, "two.pcapng"))
        self.assertEqual(second["error"]["message"],
                         "port 'p0' has a capture already (id %d): stop it first" % first["id"])
        # Its file over the connection (capture.read) and removed (capture.remove) once it ended only.
        for method in ("capture.read", "capture.remove"):
            self.assertEqual(self.client.call(method, id=first["id"])["error"]["message"],
                             "capture %d is still capturing: end it first (capture.stop)" % first["id"])
            self.assertEqual(self.client.call(method, id=99)["error"]["message"],
                             "params.id: no capture 99 (capture.list lists those this data plane keeps)")
        self.assertEqual(self.client.call("capture.start", port="p0", file="sub/relative.pcapng")["error"]["message"],
                         "params.file: 'sub/relative.pcapng' is neither an absolute path nor a file name (letters, "
                         "digits, '.', '_', '-', '+'; not starting with '.') for the capture directory "
                         "/var/lib/linerate/captures")
        self.assertEqual(self.client.call("capture.start", port="p0", file="/tmp/x.pcapng", snaplen=10)["error"]
                         ["message"], "params.snaplen: expected a whole number from 64 to 16384, found 10")
        stopped = self.client.result("capture.stop", id=first["id"])
        self.assertEqual(stopped["state"], "done: stopped")
        self.assertEqual(self.client.call("capture.stop", id=99)["error"]["message"], "no capture has id 99")
        with open(os.path.join(self.dir, "one.pcapng"), "rb") as f:
            whole = f.read()
        piece = self.client.result("capture.read", id=first["id"], offset=4, length=8)
        self.assertEqual((piece["size"], piece["offset"], base64.b64decode(piece["data"])), (len(whole), 4, whole[4:12]))
        self.assertEqual(base64.b64decode(self.client.result("capture.read", id=first["id"])["data"]), whole)
        self.assertEqual(self.client.call("capture.read", id=first["id"], offset=len(whole) + 1)["error"]["message"],
                         "params.offset: %d is past the end of capture %d's file (%d bytes)"
                         % (len(whole) + 1, first["id"], len(whole)))
        self.assertEqual(self.client.call("capture.read", id=first["id"], length=0)["error"]["message"],
                         "params.length: expected a whole number from 1 to 4194304, found 0")
        self.assertEqual(self.client.result("capture.remove", id=first["id"]),
                         {"id": first["id"], "file": os.path.join(self.dir, "one.pcapng"), "removed": True})
        self.assertFalse(os.path.exists(os.path.join(self.dir, "one.pcapng")))
        self.assertFalse(self.client.result("capture.remove", id=first["id"])["removed"])  # gone already
        self.assertEqual(self.client.call("capture.read", id=first["id"])["error"]["message"],
                         "capture %d's file %s cannot be read: No such file or directory"
                         % (first["id"], os.path.join(self.dir, "one.pcapng")))


BRIDGE_PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "200ms"
[control]
socket = "%s"
[[port]]
name = "a"
device = "net_af_packet0,iface=lra"
speed = "1G"
[[port]]
name = "b"
device = "net_af_packet1,iface=lrb"
speed = "1G"
[[stream]]
name = "lossy"
tx_port = "a"
rx_port = "b"
frame_size = 128
rate = "10kpps"
count = 1000
udp = { dst = 7000 }
[[stream]]
name = "doubled"
tx_port = "a"
rx_port = "b"
frame_size = 128
rate = "10kpps"
count = 1000
udp = { dst = 7001 }
"""

# The device under test: a Linux bridge whose nftables drop the 501st frame to UDP port
# 7000 and send the 301st to port 7001 twice, in every run of 1000 (numgen counts them).
BRIDGE_RULES = """
table bridge lr_drop_one {
  chain forward {
    type filter hook forward priority 0; policy accept;
    udp dport 7000 numgen inc mod 1000 500 drop
  }
}
table netdev lr_dup_one {
  chain ingress {
    type filter hook ingress device "bra" priority 0; policy accept;
    udp dport 7001 numgen inc mod 1000 300 dup to "brb"
  }
}
"""


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("nft"), "needs root and nftables")
class Trigger(lrtest.NetnsServiceCase):
    """A capture that freezes around a stream's first loss or duplicate: the frames before
    it, the frame that showed it, the frames after; the missing frame named, not invented."""

    def setUp(self):
        super().setUp()
        self.make_bridged_veths()
        subprocess.run(["ip", "netns", "exec", self.ns, "nft", "-f", "-"], input=BRIDGE_RULES, check=True, text=True)
        self.start_service(BRIDGE_PROFILE)

    def triggered_run(self, path, *trigger):
        proc = subprocess.Popen([LINERATE, "--socket", self.sock_path, "capture", "b", "-w", path, *trigger],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is not None or proc.kill())
        lrtest.wait_until(lambda: any(c["state"] == "capturing" for c in self.client.result("capture.list")),
                          "the capture started")
        self.client.result("traffic.start")
        lrtest.wait_until(lambda: self.client.result("traffic.status")["tx_finished"], "both streams sent")
        report = self.client.result("traffic.stop")
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0, err)
        return {s["name"]: s for s in report["streams"]}, out

    def test_a_trigger_over_two_runs_keeps_no_frame_of_the_first_before_the_event(self):
        # 498 frames, then a new run: the bridge drops its third (numgen 500), seq 2.
        lossy = {"name": "lossy", "tx_port": "a", "rx_port": "b", "frame_size": 128, "rate": "10kpps",
                 "udp": {"dst": 7000}}
        self.client.result("stream.load", streams=[dict(lossy, count=498)])
        path = os.path.join(self.dir, "two-runs.pcapng")
        proc = subprocess.Popen([LINERATE, "--socket", self.sock_path, "capture", "b", "-w", path, "--trigger", "loss",
                                 "--stream", "lossy", "--before", "5", "--after", "2"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is not None or proc.kill())
        lrtest.wait_until(lambda: any(c["state"] == "capturing" for c in self.client.result("capture.list")),
                          "the capture started")
        for count in (498, 10):
            self.client.result("stream.load", streams=[dict(lossy, count=count)])
            self.client.result("traffic.start")
            lrtest.wait_until(lambda: self.client.result("traffic.status")["tx_finished"], "the stream sent")
            report = self.client.result("traffic.stop")
            if report["streams"][0]["lost"] != (0 if count == 498 else 1):
                proc.kill()
                self.skipTest("the host lost frames of its own: %d lost" % report["streams"][0]["lost"])
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 0, err)
        seqs = [int(re.search(r"seq (\d+) latency", f[0]).group(1)) for f in tshark_fields(path, "frame.comment")]
        self.assertEqual(seqs, [0, 1, 3, 4, 5])  # none of the first run's 493..497

    def test_the_frames_around_the_first_loss_and_the_first_duplicate(self):
        path = os.path.join(self.dir, "loss.pcapng")
        streams, out = self.triggered_run(path, "--trigger", "loss", "--stream", "lossy", "--before", "5",
                                          "--after", "5")
        if streams["lossy"]["lost"] != 1:
            self.skipTest("the host lost frames of its own: %d lost, the bridge dropped one" % streams["lossy"]["lost"])
        self.assertIn("trigger: first loss: expected seq 500, got 501; missing: 500 at ", out)
        frames = tshark_fields(path, "udp.dstport", "frame.comment")
        self.assertEqual([f[0] for f in frames], ["7000"] * 11)
        seqs = [int(re.search(r"seq (\d+) latency", f[1]).group(1)) for f in frames]
        self.assertEqual(seqs, [495, 496, 497, 498, 499, 501, 502, 503, 504, 505, 506])
        self.assertTrue(frames[5][1].startswith("first loss: expected seq 500, got 501; missing: 500; stream lossy "
                                                "lane 0 seq 501 latency "), frames[5][1])
        self.assertEqual([f[1].startswith("stream lossy lane 0 seq ") for f in frames].count(True), 10)

        path = os.path.join(self.dir, "dup.pcapng")
        streams, out = self.triggered_run(path, "--trigger", "dup", "--stream", "doubled", "--before", "2",
                                          "--after", "2")
        self.assertEqual((streams["doubled"]["duplicate"], streams["doubled"]["rx_packets"]), (1, 1001))
        self.assertIn("trigger: first duplicate: seq 300 again at ", out)
        frames = tshark_fields(path, "frame.comment")
        self.assertEqual(len(frames), 5)
        self.assertTrue(frames[2][0].startswith("first duplicate: seq 300 again; stream doubled lane 0 seq 300 "))
        captured = [c for c in self.client.result("capture.list") if c["trigger"] == "dup"][0]
        self.assertEqual((captured["captured"], captured["trigger_event"]), (5, "first duplicate: seq 300 again"))
        self.assertTrue(captured["state"].startswith("done: the trigger fired: first duplicate"), captured["state"])


if __name__ == "__main__":
    lrtest.main()
