"""`linerate optics watch`, optics in service, on what this machine has: veth pairs in a
namespace of the test's own (real netdevs without a module, said plainly: no module EEPROM,
no FEC statistics, their metrics absent rather than zero), a serving data plane's net_ring
port, and a stored series for `linerate optics history`. The module, FEC and flag cases
with moving values are the unit tests' (tests/unit/optics/port_watch_test.cpp, over the
kernel-interface fake); here: the service itself: its intervals, its page (clean under
promtool), a flap, a netdev that disappears and one that appears, bad arguments, SIGINT.

    [watch] --all-netdevs in lr-opticswa-PID:  owa ==veth== owb,  owc ==veth== owd
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import unittest

import lrtest


def linerate():
    return sys.modules["__main__"].LINERATE


class WatchCase(lrtest.NetnsCase):
    def setUp(self):
        super().setUp()
        self.make_veth_pairs(("owa", "owb"), ("owc", "owd"))
        self.nsexec("ip", "link", "set", "lo", "up")  # the page is scraped on the namespace's loopback
        self.state_dir = os.path.join(self.dir, "optics")

    def start_watch(self, *args):
        """The watch in the namespace, every 300 ms, its page on a free port; returns the URL."""
        self.proc = subprocess.Popen(["ip", "netns", "exec", self.ns, linerate(), "optics", "watch", "--interval",
                                      "300ms", "--dir", self.state_dir, "--listen", "127.0.0.1:0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(self.stop_watch)
        first = self.proc.stdout.readline()
        if "metrics at http://127.0.0.1:" not in first:
            self.fail("the watch did not start: " + first + self.proc.communicate(timeout=20)[1])
        return first.split("metrics at ")[1].split(";")[0]

    def stop_watch(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            out, err = self.proc.communicate(timeout=20)
            self.out = out
            self.err = err

    def state(self):
        try:
            with open(os.path.join(self.state_dir, "watch.json")) as f:
                return {p["port"]: p for p in json.load(f)["ports"]}
        except (FileNotFoundError, json.JSONDecodeError):
            return {}

    def scrape(self, url):
        return subprocess.run(["ip", "netns", "exec", self.ns, "curl", "-sf", url], capture_output=True, text=True,
                              check=True).stdout

    def history_lines(self, port):
        with open(os.path.join(self.state_dir, "history", port + ".jsonl")) as f:
            return [json.loads(line) for line in f]


class OpticsWatchOnNetdevs(WatchCase):
    def test_every_netdev_is_read_and_said_without_a_module_and_its_page_is_clean(self):
        url = self.start_watch("--all-netdevs")
        lrtest.wait_until(lambda: len(self.history_lines("owa")) >= 2 if os.path.exists(
            os.path.join(self.state_dir, "history", "owa.jsonl")) else False, "two readings of owa")
        page = self.scrape(url)
        if shutil.which("promtool"):
            check = subprocess.run(["promtool", "check", "metrics"], input=page, capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr + page)
        for port in ("owa", "owb", "owc", "owd"):
            self.assertIn('lr_optics_port_up{port="%s",source="netdev"} 1\n' % port, page)
            self.assertIn('lr_link_up{port="%s"} 1\n' % port, page)
            self.assertIn('lr_link_speed_bytes_per_second{port="%s"} 1250000000\n' % port, page)  # veth: 10G
            self.assertIn('lr_optics_unsupported{port="%s",what="module EEPROM"} 1\n' % port, page)
            self.assertIn('lr_optics_unsupported{port="%s",what="FEC statistics"} 1\n' % port, page)
        # Absent, not zero: veth has no module and no FEC.
        self.assertNotIn("lr_module_rx_power_dbm", page)
        self.assertNotIn("lr_fec_", page)
        self.assertNotIn('port="lo"', page)
        # A netdev that appears later is watched from its next interval.
        self.make_veth_pairs(("owe", "owf"))
        lrtest.wait_until(lambda: self.state().get("owe", {}).get("current"), "owe in watch.json")
        # And one that goes is no longer watched (its history stays).
        self.nsexec("ip", "link", "del", "owe")
        lrtest.wait_until(lambda: "owf" not in self.state() and "owe" not in self.state(), "owe and owf gone")
        self.stop_watch()
        self.assertIn("owe: gone, no longer watched (--all-netdevs)\n", self.out)
        self.assertTrue(os.path.exists(os.path.join(self.state_dir, "history", "owe.jsonl")))
        self.assertEqual(self.proc.returncode, 0, self.err)
        intervals = int(self.out.strip().splitlines()[-1].split()[2])
        self.assertRegex(self.out.strip().splitlines()[-1], r"^stopped after \d+ interval\(s\)$")
        # Each interval is a line of each port's history; what veth lacks is said once.
        self.assertEqual(len(self.history_lines("owa")), intervals)
        self.assertEqual(self.out.count("owa: no module EEPROM: module EEPROM read is not supported by the kernel "
                                        "netdev owa (veth); its metrics are absent\n"), 1, self.out)
        self.assertEqual(self.out.count("owa: no FEC statistics"), 1, self.out)

    def test_a_flap_is_counted_and_a_netdev_that_disappears_is_said_on_its_port(self):
        url = self.start_watch("--netdev", "owa,owb,owc")
        lrtest.wait_until(lambda: all(p.get("current") for p in self.state().values()) and len(self.state()) == 3,
                          "the three netdevs read")
        self.nsexec("ip", "link", "set", "owb", "down")  # owa loses its carrier
        lrtest.wait_until(lambda: self.state()["owa"]["link"].get("up") is False, "owa down in watch.json")
        self.nsexec("ip", "link", "set", "owb", "up")
        lrtest.wait_until(lambda: self.state()["owa"]["link"].get("up") is True, "owa up again")
        self.nsexec("ip", "link", "del", "owc")
        lrtest.wait_until(lambda: not self.state()["owc"]["current"], "owc not read in watch.json")
        state = self.state()
        self.assertEqual(state["owa"]["link"]["flaps"], 1)
        self.assertGreater(state["owa"]["link"]["last_change"], 0)
        self.assertEqual(state["owc"]["missed"], "kernel netdev owc is gone")
        self.assertTrue(state["owa"]["current"])  # the others go on
        page = self.scrape(url)
        self.assertIn('lr_link_flaps_total{port="owa"} 1\n', page)
        self.assertNotIn('lr_link_up{port="owc"}', page)
        self.assertIn('lr_optics_port_up{port="owc",source="netdev"} 0\n', page)  # the alert's series
        self.stop_watch()
        self.assertIn("owa: link down (flaps since the watch began: 1)\n", self.out)
        self.assertIn("owa: link up (flaps since the watch began: 1)\n", self.out)
        self.assertEqual(self.out.count("owc: kernel netdev owc is gone\n"), 1, self.out)


class OpticsWatchArguments(lrtest.DataplaneCase):
    def refused(self, *args):
        proc = subprocess.run([linerate(), "optics", "watch", "--dir", os.path.join(self.dir, "w"), *args],
                              capture_output=True, text=True, timeout=30)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout, "")
        return proc.stderr

    def test_bad_arguments_are_refused_saying_which_and_why(self):
        self.assertIn("linerate: --netdev nosuch0: no such netdev here (netdevs: ", self.refused("--netdev", "nosuch0"))
        self.assertIn("linerate: nothing to watch: give --netdev, --all-netdevs, --port or --all-ports",
                      self.refused())
        self.assertIn("'0s' is outside 0.1 s to 3600 s", self.refused("--all-netdevs", "--interval", "0s"))
        self.assertIn("'soon' is not a duration", self.refused("--all-netdevs", "--interval", "soon"))
        self.assertIn("--listen", self.refused("--all-netdevs", "--listen", "nowhere"))
        self.assertIn("linerate: --deadline 5 s is not shorter than --interval 1 s",
                      self.refused("--all-netdevs", "--interval", "1s", "--deadline", "5s"))

    def test_a_data_plane_port_is_read_through_the_data_plane(self):
        prefix = "lr-opticswatch-%d" % os.getpid()
        sock = os.path.join(self.dir, "dp.sock")
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        self.serve(self.write_profile(lrtest.RING_SERVICE % (prefix, sock)), sock)
        out_dir = os.path.join(self.dir, "w")
        proc = subprocess.run([linerate(), "--socket", sock, "optics", "watch", "--all-ports", "--interval", "300ms",
                               "--count", "3", "--dir", out_dir, "--listen", "none"],
                              capture_output=True, text=True, timeout=30)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("p0: no module EEPROM: module EEPROM read is not supported by net_ring", proc.stdout)
        self.assertTrue(proc.stdout.endswith("stopped after 3 interval(s)\n"), proc.stdout)
        with open(os.path.join(out_dir, "watch.json")) as f:
            (port,) = json.load(f)["ports"]
        self.assertEqual((port["port"], port["source"], port["current"]), ("p0", "dataplane", True))
        self.assertEqual(port["link"], {"up": True, "speed_bps": 10_000_000_000, "flaps": 0})
        proc = subprocess.run([linerate(), "--socket", sock, "optics", "watch", "--port", "p9", "--dir", out_dir],
                              capture_output=True, text=True, timeout=30)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertIn("linerate: --port p9: the data plane at %s has no such port (ports: p0)" % sock, proc.stderr)


def reading(t, serial, rx_mw):
    """A history line as the watch writes it, of a QSFP28 whose lane-1 RX power is `rx_mw`."""
    monitors = [{"quantity": "temperature", "value": 40.5, "unit": "C", "alarm_flag": False, "warning_flag": False},
                {"quantity": "rx_power", "lane": 1, "value": rx_mw, "unit": "mW", "alarm_flag": False,
                 "warning_flag": False},
                {"quantity": "bias", "lane": 1, "value": 7.5, "unit": "mA", "alarm_flag": False, "warning_flag": False}]
    return {"port": "eth9", "current": True, "source": "netdev", "time": t, "link": {"up": True, "flaps": 0},
            "module": {"type": "QSFP28", "vendor": "ACME", "part": "SR4", "serial": serial, "monitors": monitors,
                       "thresholds": {"rx_power": {"unit": "mW", "low_warning": 0.1, "low_alarm": 0.05}}},
            "fec": {"corrected_per_second": 10.0 * (t - 1796601600 + 1)}}


class OpticsHistory(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        os.makedirs(os.path.join(self.dir, "history"))
        with open(os.path.join(self.dir, "history", "eth9.jsonl"), "w") as f:
            for i in range(30):
                f.write(json.dumps(reading(1796601600 + 10 * i, "QSN42" if i < 20 else "QSN77", 1.0 - 0.03 * i)) + "\n")

    def history(self, *args):
        return subprocess.run([linerate(), "optics", "history", "--dir", self.dir, *args], capture_output=True,
                              text=True, timeout=60)

    def test_the_table_the_chart_and_the_json_of_a_stored_series(self):
        proc = self.history("eth9", "--rows", "12")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(len(lines), 1 + 12 + 1, proc.stdout)  # header, 12 readings, the swap
        self.assertIn("2026-12-07 00:03:20  module now ACME SR4 QSFP28 (serial QSN77)", lines)
        self.assertTrue(lines[-1].startswith("2026-12-07 00:04:50  up        0    40.5  7.50"), lines[-1])
        svg = os.path.join(self.dir, "eth9.svg")
        proc = self.history("eth9", "--rows", "1", "--svg", svg)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(svg) as f:
            chart = f.read()
        self.assertIn("<svg", chart)
        self.assertIn("RX power (dBm)", chart)
        self.assertIn("low_warning", chart)
        proc = self.history("eth9", "--rows", "2", "--json")
        self.assertEqual([r["time"] for r in json.loads(proc.stdout)], [1796601880, 1796601890])

    def test_a_port_without_history_and_a_report_of_another_module_are_refused(self):
        proc = self.history("eth3")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("linerate: no history of eth3 in %s/history" % self.dir, proc.stderr)
        report = os.path.join(self.dir, "report.json")
        with open(report, "w") as f:
            json.dump({"started_at": "2026-11-30T09:00:00Z", "ports": [
                {"port": "a", "verdict": "PASS", "module": {"serial": "QSN42"}, "criteria": [],
                 "samples": [{"t_s": 1, "link_up": True, "counters": {},
                              "monitors": [{"name": "rx_power[1]", "unit": "mW", "value": 1.0}]}]}]}, f)
        proc = self.history("eth9", "--since-qualified", report)
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn("the report has no qualified port with the module of serial QSN77", proc.stderr)
        with open(report, "w") as f:
            f.write("{not json")
        proc = self.history("eth9", "--since-qualified", report)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("not a report.json (not a JSON object)", proc.stderr)


if __name__ == "__main__":
    lrtest.main()
