"""`linerate optics qualify` on a veth pair in a namespace of its own: two af_packet ports
cabled to each other, as a lab cables a pair of modules. veth has no module EEPROM, no
FEC and no CRC counter: those criteria are SKIPPED with the kernel's reason, never passed,
while frame loss (exact, per stream) and link stability are judged for real. A link taken
down during the traffic fails the port and the report says when; a bad [qualify] section
is refused at its key before any traffic; Ctrl-C keeps every sample.

    [linerate port a] lra ==veth== lrb [linerate port b]
"""
import json
import os
import signal
import subprocess
import sys
import time
import unittest

import benchreport
import lrtest

# The two af_packet ports on the veth pair, at the speed the rates refer to.
PORTS = """[[port]]
name = "a"
device = "net_af_packet0,iface=lra"
speed = "50M"
[[port]]
name = "b"
device = "net_af_packet1,iface=lrb"
speed = "50M"
"""

PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "200ms"
""" + PORTS + """[[stream]]
name = "a-to-b"
tx_port = "a"
rx_port = "b"
frame_size = 512
[[stream]]
name = "b-to-a"
tx_port = "b"
rx_port = "a"
frame_size = 512
[qualify]
rate = "20%%"
duration = "%s"
interval = "500ms"
[report]
dut = "veth pair lra / lrb"
"""


def make_veth_pair(case):
    """lra ==veth== lrb in the case's namespace, up, without IPv6 (whose frames would mix in)."""
    case.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
    case.nsexec("ip", "link", "add", "lra", "type", "veth", "peer", "name", "lrb")
    for dev in ("lra", "lrb"):
        case.nsexec("ip", "link", "set", dev, "up")


@unittest.skipUnless(os.geteuid() == 0, "needs root for network namespaces")
class OpticsQualifyOnVeth(lrtest.NetnsCase):
    def setUp(self):
        super().setUp()
        make_veth_pair(self)

    def start(self, profile_text, out_dir, *args, **popen):
        profile = self.write_profile(profile_text)
        env = dict(os.environ, LINERATE_SOCKET=os.path.join(self.dir, "nobody.sock"))
        return subprocess.Popen(["ip", "netns", "exec", self.ns, sys.modules["__main__"].LINERATE, "optics", "qualify",
                                 profile, "--report-dir", out_dir, *args], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, **popen)

    def qualify(self, profile_text, out_dir, *args):
        proc = self.start(profile_text, out_dir, *args)
        out, err = proc.communicate(timeout=120)
        report = None
        if os.path.exists(os.path.join(out_dir, "report.json")):
            with open(os.path.join(out_dir, "report.json")) as f:
                report = json.load(f)
        return proc.returncode, out + err, report

    @staticmethod
    def criteria(port):
        return {c["name"]: c for c in port["criteria"]}

    def test_a_cabled_pair_passes_what_it_can_show_and_is_not_qualified_on_what_veth_cannot_say(self):
        out_dir = os.path.join(self.dir, "out")
        code, out, report = self.qualify(PROFILE % "2s", out_dir)
        self.assertEqual(code, 6, out)  # INCOMPLETE: neither a pass nor a fail
        self.assertEqual(report["schema"], "linerate.optics-qualify/1")
        self.assertEqual(report["settings"]["duration_s"], 2)
        ports = {p["port"]: p for p in report["ports"]}
        self.assertEqual(sorted(ports), ["a", "b"])
        streams = {s["name"]: s for s in report["run"]["streams"]}
        for name, stream in (("a", "b-to-a"), ("b", "a-to-b")):
            port = ports[name]
            c = self.criteria(port)
            # Nothing failed, but a module never read and error counts never taken qualify nothing.
            self.assertEqual(port["verdict"], "INCOMPLETE", port["criteria"])
            self.assertEqual(port["unmeasured"], ["module", "fec_mode", "fec_uncorrectable", "pre_fec_ber", "ber_confidence"])
            # Exact frame counts, from the stream received on the port.
            sent = streams[stream]["tx_packets"]
            self.assertGreater(sent, 1000)
            traffic = {k: port["traffic"][k] for k in ("streams_received", "frames_sent", "frames_received", "frames_lost")}
            self.assertEqual(traffic, {"streams_received": 1, "frames_sent": sent, "frames_received": sent, "frames_lost": 0})
            # 20 % of 50 Mbit/s at 512 bytes: 2349.6 frames/s asked.
            self.assertAlmostEqual(port["traffic"]["target_pps"], 0.2 * 50e6 / (532 * 8), delta=0.5)
            self.assertEqual(c["frame_loss"]["verdict"], "PASS")
            self.assertEqual(c["frame_loss"]["measured"], "0 lost of %d sent" % sent)
            self.assertEqual(c["link_stability"]["verdict"], "PASS")
            # What veth cannot say is SKIPPED, with the kernel's reason.
            for skipped in ("module", "fec_mode", "fec_uncorrectable", "pre_fec_ber", "ber_confidence",
                            "module_thresholds", "power_drift", "field_rules"):
                self.assertEqual(c[skipped]["verdict"], "SKIPPED", skipped)
            self.assertIn("veth", c["module"]["note"])
            self.assertIsNone(port["module"])
            # A sample every 500 ms, the first at the start; rx_packets counted by the port itself.
            self.assertGreaterEqual(len(port["samples"]), 5)
            self.assertEqual(port["samples"][0]["t_s"], 0)
            self.assertGreater(port["samples"][-1]["counters"]["rx_packets"], 1000)
        self.assertIn("port a: INCOMPLETE: not qualified, module, fec_mode, fec_uncorrectable, pre_fec_ber, "
                      "ber_confidence not measured (9 of 13 criteria SKIPPED, see why below)", out)
        rows = benchreport.check_report_dir(self, out_dir, "summary.csv")
        skipped = "module fec_mode fec_uncorrectable pre_fec_ber ber_confidence crc_errors module_thresholds power_drift field_rules"
        self.assertEqual([(r["port"], r["verdict"], r["frames_lost"], r["not_passed"], r["skipped"]) for r in rows],
                         [("a", "INCOMPLETE", "0", "", skipped), ("b", "INCOMPLETE", "0", "", skipped)])
        dom = benchreport.check_page_in_browser(self, os.path.join(out_dir, "report.html"),
                                                ["port0-rx-frames", "port1-rx-frames"])
        self.assertIn("RX power per lane (dBm): no data", dom)
        benchreport.check_summary(self, dom, "veth pair lra / lrb", {"a": "50 Mbit/s", "b": "50 Mbit/s"})
        self.assertIn('Port a: <span class="INCOMPLETE">INCOMPLETE</span>', dom)
        self.assertIn("Not qualified: module, fec_mode, fec_uncorrectable, pre_fec_ber, ber_confidence not measured", dom)

    def test_loss_while_the_host_held_the_tester_up_is_not_charged_to_the_module(self):
        # Both workers on one CPU: each is held up while the other runs, for milliseconds, and
        # frames arriving meanwhile overflow the RX ring af_packet keeps in the kernel, which it
        # does not count (imissed stays 0). The loss is the tester's as likely as the module's:
        # frame_loss is not judged, and the port is not qualified (INCOMPLETE), never FAILED.
        out_dir = os.path.join(self.dir, "out")
        text = (PROFILE % "1s").replace('lcores = "0-1"', 'lcores = "0@0,1@1,2@1"').replace(
            'speed = "50M"', 'speed = "10G"').replace('rate = "20%"', 'rate = "100%"')
        code, out, report = self.qualify(text, out_dir)
        ports = {p["port"]: p for p in report["ports"]}
        lost = [p for p in ports.values() if p["traffic"]["frames_lost"] > 0]
        if not lost:
            self.skipTest("not judged: the host let both workers keep up, nothing was lost")
        for port in lost:
            c = self.criteria(port)["frame_loss"]
            self.assertEqual(c["verdict"], "SKIPPED", c)
            self.assertRegex(c["note"], r"^not judged: %d lost of %d sent while the host held tester lcore [12] up for "
                                        r"\d+ us at [\d.]+ s, and the port counted no RX miss \(a driver such as "
                                        r"af_packet counts none\): the loss cannot be told from the tester's"
                             % (port["traffic"]["frames_lost"], port["traffic"]["frames_sent"]))
            self.assertEqual(port["verdict"], "INCOMPLETE")
            self.assertIn("frame_loss", port["unmeasured"])
        self.assertNotIn("FAIL", [p["verdict"] for p in ports.values()], [p["criteria"] for p in ports.values()])
        self.assertEqual(code, 6, out)

    def test_set_fec_on_a_port_that_cannot_is_reported_not_hidden(self):
        out_dir = os.path.join(self.dir, "out")
        text = (PROFILE % "1s").replace('interval = "500ms"', 'interval = "500ms"\nfec = "rs"\nset_fec = true')
        code, out, report = self.qualify(text, out_dir)
        self.assertEqual(code, 6, out)  # INCOMPLETE on veth
        self.assertRegex(report["fec_set"]["a"], r"^refused: FEC set is not supported by net_af_packet .* \(veth\)")
        for port in report["ports"]:
            self.assertEqual(self.criteria(port)["fec_mode"]["verdict"], "SKIPPED")
        self.assertEqual(report["settings"]["expected_fec"], "rs")

    def test_a_link_that_drops_during_the_traffic_fails_and_the_report_says_when(self):
        out_dir = os.path.join(self.dir, "out")
        proc = self.start(PROFILE % "4s", out_dir)
        time.sleep(2.5)  # the data plane starts, then the traffic
        self.nsexec("ip", "link", "set", "lrb", "down")
        time.sleep(0.6)
        self.nsexec("ip", "link", "set", "lrb", "up")
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 3, out + err)  # a port failed
        with open(os.path.join(out_dir, "report.json")) as f:
            report = json.load(f)
        for port in report["ports"]:
            c = self.criteria(port)
            self.assertEqual(port["verdict"], "FAIL")
            self.assertEqual(c["link_stability"]["verdict"], "FAIL", c["link_stability"])
            self.assertRegex(c["link_stability"]["note"], r"first down \d+\.\d s into the traffic")
        drops = [d for p in report["ports"] for d in p["link_drops"]]
        self.assertTrue(drops, "the link poll saw the drop")
        self.assertTrue(all(d["seen_by"] == "link poll" and d["at"].endswith("Z") for d in drops), drops)
        self.assertIn("port b: FAIL", out)

    def test_a_bad_qualify_section_is_refused_at_its_key_before_any_traffic(self):
        good = PROFILE % "2s"
        add = lambda line: good.replace('interval = "500ms"', 'interval = "500ms"\n' + line)
        for text, message in ((add('ports = ["c"]'), ":29:9: key 'qualify.ports': no [[port]] is named 'c'"),
                              (add('fec = "rs5"'), ":29:7: key 'qualify.fec': 'rs5' is not off, baser, rs or llrs"),
                              (add('set_fec = true'), ":29:11: key 'qualify.set_fec': set which FEC mode?"),
                              (PROFILE % "5ms",
                               ":27:12: key 'qualify.duration': '5ms' is not 'auto' or a duration of at least 100ms")):
            code, out, report = self.qualify(text, os.path.join(self.dir, "bad"))
            self.assertEqual(code, 2, out)
            self.assertIn(message, out)
            self.assertIsNone(report)

    def test_ctrl_c_keeps_every_sample_and_says_it_was_interrupted(self):
        out_dir = os.path.join(self.dir, "out")
        proc = self.start(PROFILE % "60s", out_dir)
        deadline = time.time() + 30
        while time.time() < deadline:  # until the traffic has been sampled twice
            try:
                with open(os.path.join(out_dir, "report.json")) as f:
                    if len(json.load(f)["ports"][0]["samples"]) >= 3:
                        break
            except (OSError, ValueError, KeyError, IndexError):
                pass
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)  # `ip netns exec` execs linerate: this is its pid
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 128 + signal.SIGINT, out + err)  # partial: not a PASS
        with open(os.path.join(out_dir, "report.json")) as f:
            report = json.load(f)
        self.assertTrue(report["interrupted"])
        self.assertIn("finished_at", report)
        for port in report["ports"]:
            self.assertGreaterEqual(len(port["samples"]), 3)
            self.assertEqual(self.criteria(port)["frame_loss"]["verdict"], "PASS")
        self.assertIn("(interrupted: the verdicts cover the samples taken)", out)
        self.assertTrue(os.path.exists(os.path.join(out_dir, "report.html")))


def replayed_report():
    """A qualification report of one QSFP28 as report.json holds it, with the series a
    ConnectX port gives (per-lane FEC corrected bits, uncorrectable blocks, RX power per
    lane, temperature): the input of the views, which this machine's veth cannot produce."""
    samples = []
    for t in range(6):
        samples.append({"t_s": t, "link_up": True, "speed_mbps": 50000,
                        "counters": {"rx_packets": 4000000 * t, "fec_corrected_bits": 100000 * t,
                                     "fec_corrected_bits_lane0": 50000 * t, "fec_corrected_bits_lane1": 50000 * t,
                                     "fec_uncorrectable_blocks": 0},
                        "monitors": [{"name": "temperature", "unit": "C", "value": 40 + t / 10},
                                     {"name": "rx_power[1]", "unit": "mW", "value": 0.6},
                                     {"name": "rx_power[2]", "unit": "mW", "value": 0.6 - 0.02 * t}]})
    criteria = [{"name": "pre_fec_ber", "verdict": "PASS", "measured": "2.00e-06", "bound": "≤ 5.00e-05", "note": "",
                 "value": 2e-6},
                {"name": "power_drift", "verdict": "FAIL", "measured": "rx_power[2] moved 1.00 dB", "bound": "rx ≤ 1 dB",
                 "note": "", "value": 1.0}]
    return {"schema": "linerate.optics-qualify/1", "profile": "replayed.toml", "started_at": "2026-12-01T12:00:00Z",
            "finished_at": "2026-12-01T12:00:06Z", "interrupted": False, "settings": {"duration_s": 5},
            "ports": [{"port": "m0", "verdict": "FAIL",
                       "module": {"identifier": "QSFP28", "vendor": "ACME OPTICS", "part": "QSFP28-SR4", "revision": "A0",
                                  "serial": "QSN42", "date_code": "23111501"},
                       "module_error": "", "criteria": criteria, "samples": samples}]}


class QualificationViews(lrtest.DataplaneCase):
    def test_the_page_draws_every_series_of_a_port_with_a_module_and_fec(self):
        out_dir = os.path.join(self.dir, "views")
        os.makedirs(out_dir)
        with open(os.path.join(out_dir, "report.json"), "w") as f:
            json.dump(replayed_report(), f)
        linerate = sys.modules["__main__"].LINERATE
        for view, name in (("--html", "report.html"), ("--csv", "summary.csv")):
            proc = subprocess.run([linerate, "report", os.path.join(out_dir, "report.json"), view,
                                   os.path.join(out_dir, name)], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = benchreport.check_report_dir(self, out_dir, "summary.csv")
        self.assertEqual([(r["vendor"], r["part"], r["serial"], r["verdict"], r["not_passed"]) for r in rows],
                         [("ACME OPTICS", "QSFP28-SR4", "QSN42", "FAIL", "power_drift:FAIL")])
        benchreport.check_page_in_browser(self, os.path.join(out_dir, "report.html"),
                                          ["port0-rx-power", "port0-fec-corrected", "port0-fec-uncorrectable",
                                           "port0-temperature", "port0-rx-frames"])


SERVICE_PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "200ms"
[control]
socket = "%s"
""" + PORTS + """[[stream]]
name = "a-to-b"
tx_port = "a"
rx_port = "b"
frame_size = 256
rate = "10%%"
"""


@unittest.skipUnless(os.geteuid() == 0, "needs root for network namespaces")
class OpticsQualifyOnAServingDataPlane(lrtest.NetnsServiceCase):
    """`--port` without a profile: the serving data plane's ports, with the streams it has."""

    def setUp(self):
        super().setUp()
        make_veth_pair(self)
        self.start_service(SERVICE_PROFILE)

    def test_ports_of_a_serving_data_plane_with_its_streams(self):
        out_dir = os.path.join(self.dir, "out")
        proc = self.cli("optics", "qualify", "--port", "b", "--duration", "1s", "--report-dir", out_dir)
        self.assertEqual(proc.returncode, 6, proc.stdout + proc.stderr)  # INCOMPLETE on veth
        with open(os.path.join(out_dir, "report.json")) as f:
            report = json.load(f)
        self.assertEqual([p["port"] for p in report["ports"]], ["b"])
        port = report["ports"][0]
        sent = report["run"]["streams"][0]["tx_packets"]
        self.assertGreater(sent, 100)
        self.assertEqual((port["traffic"]["frames_sent"], port["traffic"]["frames_lost"]), (sent, 0))
        self.assertEqual({c["name"]: c["verdict"] for c in port["criteria"]}["frame_loss"], "PASS")

    def test_a_port_the_data_plane_lacks_is_refused_before_any_traffic(self):
        out_dir = os.path.join(self.dir, "none")
        proc = self.cli("optics", "qualify", "--port", "c", "--report-dir", out_dir)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertIn("linerate: the data plane has no port 'c' (it has: a, b)", proc.stderr)
        self.assertFalse(os.path.exists(out_dir))


if __name__ == "__main__":
    lrtest.main()
