"""The software lossless switch as the device under test, in one process with the tester:
two senders into one egress shaped to half their rate. A lossless priority loses nothing
because the switch sends PFC and the senders honour it; a lossy one drops the excess; the
same lossless setup without pfc_honour overflows the headroom. Every count the tester and
the switch both keep is checked against the other, frame for frame."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import unittest

import lrtest

LINE_PPS_1024 = 10e9 / ((1024 + 20) * 8)  # 1024-byte frames at 10G


def profile(priority, pfc_honour=True, headroom="4MB", ecn=False, switch_ecn="", queue_limit="200KB"):
    # 4 MB of headroom absorbs most stalls of the switch's lcore seen on a shared 2-CPU
    # VM (up to 6 ms, at 5 Gbit/s per sender); the overflow test sets less.
    streams = ""
    for sender in ("a", "b"):
        streams += """
[[stream]]
name = "%s"
tx_port = "sender-%s"
rx_port = "receiver"
vlan = { id = 100, pcp = %d }
%s
frame_size = 1024
rate = "50%%"
duration = "1s"
""" % (sender, sender, priority, "ipv4 = { ecn = 2 }" if ecn else "")
    return """
[eal]
lcores = "0@0,1@1,2@0"
huge_pages = "auto"
[run]
drain = "200ms"
live = false
[[port]]
name = "sender-a"
device = "cable:a"
speed = "10G"
pfc_honour = %(honour)s
[[port]]
name = "sender-b"
device = "cable:b"
speed = "10G"
pfc_honour = %(honour)s
[[port]]
name = "receiver"
device = "cable:r"
speed = "10G"
[[switch]]
name = "dut"
lcore = 2
ports = [
  { name = "dut-a", device = "cable:a", speed = "10G" },
  { name = "dut-b", device = "cable:b", speed = "10G" },
  { name = "dut-r", device = "cable:r", speed = "10G", shape = "50%%" },
]
forward = { dut-a = "dut-r", dut-b = "dut-r" }
lossless = [3]
buffer = "4MB"
queue_limit = "%(queue_limit)s"
xoff = "40KB"
xon = "20KB"
headroom = "%(headroom)s"
%(switch_ecn)s
%(streams)s""" % {"honour": "true" if pfc_honour else "false", "headroom": headroom, "streams": streams,
                   "switch_ecn": switch_ecn, "queue_limit": queue_limit}


# The senders' lcore held up for a tenth of the second in all lets the egress run dry for
# that long: its busy time (checked > 0.8 s) and the excess dropped shrink with it.
SENDERS_KEPT_UP = {"total_us": 100_000}


class LosslessSwitch(lrtest.DataplaneCase):
    def run_switch(self, text, **host_limits):
        """Runs the profile (again, while the host spoils it: lrtest.host_spoiled's
        `host_limits`); returns (report, switch, ports)."""
        return self.judged(lambda: self.run_switch_once(text), report_of=lambda r: r[0], **host_limits)

    def run_switch_once(self, text):
        proc, report = self.run_dataplane(text)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        (switch,) = report["switches"]
        self.assertEqual(report["mbufs_not_returned"], 0)
        self.assertEqual(switch["left_in_queues"], 0, "the drain empties the switch")
        ports = {p["name"]: p for p in switch["ports"]}
        return report, switch, ports

    @staticmethod
    def prio(port, priority):
        for c in port["priorities"]:
            if c["priority"] == priority:
                return c
        return {}

    def check_frames_cross_the_cables(self, report, ports, priority):
        # Every frame a sender sent arrived at its switch port, and every frame the switch
        # sent on priority `priority` arrived at the receiver.
        for sender in ("a", "b"):
            self.assertEqual(self.prio(ports["dut-" + sender], priority)["rx_frames"],
                             self.stream(report, sender)["tx_packets"])
        received = sum(self.stream(report, s)["rx_packets"] for s in ("a", "b"))
        self.assertEqual(self.prio(ports["dut-r"], priority)["tx_frames"], received)
        return received

    def test_lossless_priority_loses_nothing_and_pauses_its_senders(self):
        report, switch, ports = self.run_switch(profile(priority=3), **SENDERS_KEPT_UP)
        received = self.check_frames_cross_the_cables(report, ports, 3)
        # Zero loss, unless the switch's own lcore was held up (the VM took its CPU) for
        # about as long as its 4 MB of headroom lasts at a sender's 5 Gbit/s: then the run
        # says so, and the loss stays small. Senders that ignore PFC lose half (another test).
        lost = sum(self.stream(report, s)["lost"] for s in ("a", "b"))
        if lost != 0:
            self.assertTrue(any("the emulation's" in w for w in report["warnings"]), report["warnings"])
            self.assertLess(lost, 0.02 * received)
        for sender in ("a", "b"):
            s = self.stream(report, sender)
            self.assertEqual(s["duplicate"], 0)
            self.assertEqual(s["out_of_order"], 0)
            self.assertGreater(s["paused_ns"], 100e6, "held for a good part of the second")
            group = self.prio(ports["dut-" + sender], 3)
            self.assertEqual(group["drop_headroom"], s["lost"])
            self.assertGreater(group["pfc_xoff_sent"], 0)
            # Every PFC frame the switch sent was heard, XOFF and XON, by the sender.
            heard = self.port(report, "sender-" + sender)["mac_control"]
            self.assertEqual(heard["pfc_frames"], ports["dut-" + sender]["tx_pfc_frames"])
            (p3,) = heard["pfc"]
            self.assertEqual(p3["priority"], 3)
            self.assertEqual(p3["xoff"], group["pfc_xoff_sent"])
            self.assertEqual(p3["xon"], group["pfc_xon_sent"])
        # The senders together got what the egress carries: 50 % of 10G, while it had frames
        # (its time on the wire, less what a stall of its lcore past the catch-up cost it).
        shaped_pps = LINE_PPS_1024 / 2
        busy_s = ports["dut-r"]["egress_busy_s"] - ports["dut-r"]["egress_lost_us"] * 1e-6
        self.assertGreater(busy_s, 0.8)
        self.assertAlmostEqual(received / busy_s, shaped_pps, delta=0.01 * shaped_pps)
        self.assertGreaterEqual(self.prio(ports["dut-r"], 3)["queue_watermark_bytes"], 40000)

    def test_lossy_priority_drops_the_excess(self):
        report, switch, ports = self.run_switch(profile(priority=0), **SENDERS_KEPT_UP)
        received = self.check_frames_cross_the_cables(report, ports, 0)
        sent = sum(self.stream(report, s)["tx_packets"] for s in ("a", "b"))
        lost = sum(self.stream(report, s)["lost"] for s in ("a", "b"))
        drops = self.prio(ports["dut-r"], 0)["drop_tail"]
        self.assertEqual(lost, drops, "every frame the tester lost, the switch dropped")
        self.assertEqual(sent - received, drops)
        # While it had frames, the egress sent at its shaped rate; the excess over that was
        # dropped. (Its busy time is under the run's second where the senders' lcore was
        # held up long enough to let the queue run dry.)
        # A stall of its lcore beyond the 5 ms catch-up is time the egress lost, reported.
        busy_s = ports["dut-r"]["egress_busy_s"] - ports["dut-r"]["egress_lost_us"] * 1e-6
        shaped_pps = LINE_PPS_1024 / 2
        self.assertAlmostEqual(received / busy_s, shaped_pps, delta=0.01 * shaped_pps,
                               msg={k: v for k, v in ports["dut-r"].items() if k != "priorities"})
        self.assertGreater(busy_s, 0.8)
        excess = sent - shaped_pps * busy_s
        self.assertAlmostEqual(drops, excess, delta=0.01 * excess)
        for sender in ("a", "b"):
            self.assertEqual(self.stream(report, sender).get("paused_ns", 0), 0)
            self.assertEqual(ports["dut-" + sender]["tx_pfc_frames"], 0, "no PFC for a lossy priority")

    def test_without_pfc_honour_the_lossless_headroom_overflows(self):
        report, switch, ports = self.run_switch(profile(priority=3, pfc_honour=False, headroom="40KB"), **SENDERS_KEPT_UP)
        self.check_frames_cross_the_cables(report, ports, 3)
        lost = sum(self.stream(report, s)["lost"] for s in ("a", "b"))
        drops = sum(self.prio(ports["dut-" + s], 3)["drop_headroom"] for s in ("a", "b"))
        self.assertGreater(drops, 100000, "half the offered load has nowhere to go")
        self.assertEqual(lost, drops, "every frame the tester lost, the switch dropped at ingress")
        for sender in ("a", "b"):
            self.assertGreater(self.port(report, "sender-" + sender)["mac_control"]["pfc_frames"], 0,
                               "the senders heard the PFC frames and ignored them")
            self.assertEqual(self.stream(report, sender).get("paused_ns", 0), 0)

    def test_ecn_marks_reach_the_receiver_as_counted(self):
        ecn = 'ecn = { kmin = "20KB", kmax = "400KB", pmax = 0.5 }'
        report, switch, ports = self.run_switch(profile(priority=0, ecn=True, switch_ecn=ecn))
        marked = self.prio(ports["dut-r"], 0)["ecn_marked"]
        self.assertEqual(ports["dut-r"]["ecn_copy_failures"], 0)
        ce = sum(self.stream(report, s)["ecn_ce"] for s in ("a", "b"))
        self.assertEqual(ce, marked, "every frame the switch marked arrived CE-marked, and no other")
        # The queue stands near its 200 KB limit: 0.5 x (200 - 20) / (400 - 20) = 24 % of
        # the frames it admits, a little less while it fills.
        received = sum(self.stream(report, s)["rx_packets"] for s in ("a", "b"))
        self.assertGreater(ce, 0.15 * received)
        self.assertLess(ce, 0.26 * received)

    def test_a_learning_switch_floods_until_it_knows_the_way(self):
        text = """
[eal]
lcores = "0@0,1@1,2@0"
huge_pages = "auto"
[run]
drain = "100ms"
live = false
[[port]]
name = "a"
device = "cable:a"
[[port]]
name = "b"
device = "cable:b"
[[port]]
name = "r"
device = "cable:r"
[[switch]]
name = "dut"
lcore = 2
ports = [{ name = "dut-a", device = "cable:a" }, { name = "dut-b", device = "cable:b" },
         { name = "dut-r", device = "cable:r" }]
forward = "learn"
"""
        for name, tx, rx, src, dst in (("a-to-r", "a", "r", 0x0A, 0x0C), ("r-to-a", "r", "a", 0x0C, 0x0A)):
            text += """
[[stream]]
name = "%s"
tx_port = "%s"
rx_port = "%s"
eth = { src = "02:00:00:00:00:%02x", dst = "02:00:00:00:00:%02x" }
rate = "10kpps"
count = 2000
""" % (name, tx, rx, src, dst)
        report, switch, ports = self.run_switch(text)
        self.assertEqual(switch["mac_learned"], 2)
        self.assertEqual(switch["mac_table_full"], 0)
        for name, ingress in (("a-to-r", "dut-a"), ("r-to-a", "dut-r")):
            s = self.stream(report, name)
            self.assertEqual(s["lost"], 0)
            self.assertEqual(s["duplicate"], 0)
            # Until the other side had sent a frame, the switch flooded: one copy reached
            # the third port, where it counts as misdelivered, and none afterwards.
            flooded = ports[ingress]["rx_flooded"]
            self.assertEqual(s["misdelivered"], flooded)
            self.assertLess(flooded, 2000)
        # The side that sent first flooded until the other answered; the answer was known.
        self.assertGreater(ports["dut-a"]["rx_flooded"] + ports["dut-r"]["rx_flooded"], 0)
        self.assertEqual(ports["dut-b"]["rx_frames"], 0)

    def test_the_pfc_watchdog_drops_during_a_storm_and_restores_after_it(self):
        # The receiver storms PFC for priority 3 at the switch for 300 ms while a sender's
        # lossless stream goes through it: the egress queue is paused with frames waiting.
        text = profile(priority=3).replace('headroom = "4MB"', """headroom = "4MB"
watchdog = { detect = "20ms", restore = "50ms", action = "drop" }""")
        text = text.replace('rate = "50%"', 'rate = "20%"')
        text += """
[[stream]]
name = "storm"
tx_port = "receiver"
kind = "pfc"
priorities = [3]
quanta = 65535
refresh = "auto"
duration = "300ms"
"""
        # The storm's refreshes come every 1.678 ms and each holds 3.355 ms: a tester lcore held
        # up past that margin while it storms lets the pause lapse, and the watchdog restarts.
        report, switch, ports = self.run_switch(text, longest_us=1500, window=(0, 0.31))
        queue = self.prio(ports["dut-r"], 3)
        self.assertGreater(queue["pfc_xoff_received"], 150, "refreshed at 596 frames/s for 300 ms")
        self.assertEqual(queue["storms"], 1)
        self.assertEqual(queue["restorations"], 1)
        # Detected 20 ms after the queue was first paused with frames (by the first PFC
        # frame: frames wait from the start), and restored 50 ms after the last pause ran
        # out (the last frame asked 3.355 ms), both as the switch heard the storm. Late by
        # at most the switch's longest stall (the VM took its CPU).
        late_s = switch["longest_stall_us"] * 1e-6 + 0.001
        first, last = ports["dut-r"]["pause_first_s"], ports["dut-r"]["pause_last_s"]
        # At the start: the switch's vCPU may read the TSC up to tens of us behind the sender's.
        self.assertGreater(first, -0.001)
        self.assertGreater(last, 0.29)
        self.assertGreaterEqual(queue["storm_detected_s"], first + 0.020)
        self.assertLess(queue["storm_detected_s"], first + 0.020 + late_s)
        self.assertGreaterEqual(queue["storm_restored_s"], last + 0.003355 + 0.050 - 10e-6)  # one loop iteration
        self.assertLess(queue["storm_restored_s"], last + 0.003355 + 0.050 + late_s)
        self.assertGreater(queue["drop_watchdog"], 0)
        # Every frame the senders lost, the watchdog (or the headroom) dropped; after the
        # restoration the priority is lossless again.
        lost = sum(self.stream(report, s)["lost"] for s in ("a", "b"))
        headroom = sum(self.prio(ports["dut-" + s], 3)["drop_headroom"] for s in ("a", "b"))
        self.assertEqual(lost, queue["drop_watchdog"] + headroom)
        self.assertEqual(headroom, 0)

    def test_a_switch_in_a_process_of_its_own_over_memif(self):
        # The switch alone in one data plane (memif servers), the tester in another (memif
        # clients): the switch forwards until it is stopped, then reports.
        sock = os.path.join(self.dir, "memif.sock")
        pid = os.getpid()
        for prefix in ("lr-e2e-sw-%d" % pid, "lr-e2e-tester-%d" % pid):
            self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        switch_profile = self.write_profile("""
[eal]
lcores = "0@0,1@0"
file_prefix = "lr-e2e-sw-%(pid)d"
[run]
live = false
[[switch]]
name = "dut"
ports = [{ name = "dut-a", device = "net_memif0,role=server,socket=%(sock)s,id=0", speed = "10G" },
         { name = "dut-r", device = "net_memif1,role=server,socket=%(sock)s,id=1", speed = "10G", shape = "10%%" }]
forward = { dut-a = "dut-r" }
lossless = [3]
headroom = "4MB"
""" % {"pid": pid, "sock": sock}, "switch.toml")
        switch_report = os.path.join(self.dir, "switch.json")
        switch = subprocess.Popen([lrtest.BINARY, "--config", switch_profile, "--report", switch_report],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

        def stop_switch():
            if switch.poll() is None:
                switch.send_signal(signal.SIGINT)
                return switch.communicate(timeout=30)
            return switch.communicate()
        self.addCleanup(stop_switch)
        # memif listens on an abstract socket named after the path.
        def listening():
            with open("/proc/net/unix") as f:
                return "@" + sock in f.read() or switch.poll() is not None
        lrtest.wait_until(listening, "the switch's memif socket")
        # The tester serves, so that it stays connected until the switch has stopped:
        # DPDK 22.11's memif PMD unmaps a connection's shared memory when the peer leaves
        # without waiting for an lcore inside its RX / TX burst, so a peer leaving while
        # the other side still polls can crash it (docs/guide/lossless.md: memif). Between runs the
        # tester's lcores do not poll.
        tester_sock = os.path.join(self.dir, "tester.sock")
        _, client = self.serve(self.write_profile("""
[eal]
lcores = "0@0,1@1"
file_prefix = "lr-e2e-tester-%(pid)d"
[control]
socket = "%(tester_sock)s"
[run]
drain = "200ms"
live = false
[[port]]
name = "a"
device = "net_memif0,role=client,socket=%(sock)s,id=0"
speed = "10G"
pfc_honour = true
[[port]]
name = "r"
device = "net_memif1,role=client,socket=%(sock)s,id=1"
speed = "10G"
[[stream]]
name = "lossless"
tx_port = "a"
rx_port = "r"
vlan = { id = 100, pcp = 3 }
frame_size = 1024
rate = "20%%"
duration = "500ms"
""" % {"pid": pid, "sock": sock, "tester_sock": tester_sock}, "tester.toml"), tester_sock)
        client.result("traffic.start")
        lrtest.wait_until(lambda: client.result("traffic.status").get("tx_finished", False), "the tester's stream ends")
        report = client.result("traffic.stop")
        out, err = stop_switch()
        self.assertEqual(switch.returncode, 0, err)
        with open(switch_report) as f:
            (sw,) = json.load(f)["switches"]
        ports = {p["name"]: p for p in sw["ports"]}
        s = self.stream(report, "lossless")
        self.assertEqual(s["lost"], 0)
        self.assertGreater(s["paused_ns"], 100e6, "held by the other process's PFC")
        self.assertEqual(self.prio(ports["dut-a"], 3)["rx_frames"], s["tx_packets"])
        self.assertEqual(self.prio(ports["dut-r"], 3)["tx_frames"], s["rx_packets"])
        heard = self.port(report, "a")["mac_control"]
        self.assertEqual(heard["pfc_frames"], ports["dut-a"]["tx_pfc_frames"])
        self.assertIn("switch 'dut'", out)

    def test_a_service_reports_the_switch_while_traffic_runs(self):
        text = profile(priority=3).replace('duration = "1s"', 'duration = "10s"')
        sock = os.path.join(self.dir, "dp.sock")
        prefix = "lr-e2e-switch-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        text = text.replace('huge_pages = "auto"', 'huge_pages = "auto"\nfile_prefix = "%s"' % prefix)
        text += '\n[control]\nsocket = "%s"\n' % sock
        _, client = self.serve(self.write_profile(text), sock)
        client.result("traffic.start")
        lrtest.wait_until(lambda: self.prio({p["name"]: p for p in client.result("stats.switches")[0]["ports"]}["dut-a"],
                                            3).get("pfc_xoff_sent", 0) > 0, "the switch sends XOFF")
        (live,) = client.result("stats.switches")
        ports = {p["name"]: p for p in live["ports"]}
        self.assertGreater(self.prio(ports["dut-a"], 3)["rx_frames"], 0)
        # `linerate stats` shows the switch under the streams, as the run table does.
        stats = subprocess.run([sys.modules["__main__"].LINERATE, "--socket", sock, "stats"], capture_output=True,
                               text=True, timeout=60)
        self.assertEqual(stats.returncode, 0, stats.stderr)
        self.assertIn("\nswitch 'dut' (lcore ", stats.stdout)
        self.assertRegex(stats.stdout, r"(?m)^dut-a +3L +[1-9]")  # its lossless queue, frames in
        self.assertGreater(self.prio(ports["dut-r"], 3)["tx_frames"], 0)
        report = client.result("traffic.stop")
        (final,) = report["switches"]
        final_ports = {p["name"]: p for p in final["ports"]}
        self.assertGreaterEqual(self.prio(final_ports["dut-a"], 3)["rx_frames"], self.prio(ports["dut-a"], 3)["rx_frames"])
        self.assertEqual(self.prio(final_ports["dut-a"], 3)["rx_frames"], self.stream(report, "a")["tx_packets"])
        # After the run, the method answers the run's final counts.
        self.assertEqual(client.result("stats.switches")[0], final)


if __name__ == "__main__":
    lrtest.main()
