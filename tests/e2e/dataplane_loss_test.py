"""Front ends outlive their data plane (issue 56, item 3): a serving data plane on net_ring
killed (SIGKILL) under `linerate run`, which then reports the counts it last saw (exit 7);
and under `otg serve`, `exporter`, `record` and `top` at once, which say the loss once,
answer 503 / lr_up 0 / a marker line / the reason on screen meanwhile, and, the data plane
restarted on the same socket, say it serves again without being asked, after which a flow
runs exactly."""
import json
import os
import re
import shutil
import signal
import subprocess
import urllib.request

import lrtest
from otg_test import flow

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

# A stream that runs far longer than the test waits: the run is always mid-way when killed.
STREAM = """[[stream]]
name = "s1"
tx_port = "p0"
rx_port = "p0"
frame_size = 128
rate = "20kpps"
duration = "60s"
"""


class DataplaneLoss(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.sock = os.path.join(self.dir, "dp.sock")
        prefix = "lr-e2e-loss-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        self.profile = self.write_profile(lrtest.RING_SERVICE % (prefix, self.sock))
        self.dataplane, self.client = self.serve(self.profile, self.sock)

    def kill_dataplane(self):
        """SIGKILL: no goodbye on the socket, no report; the front ends find out by themselves."""
        self.client.close()
        self.dataplane.kill()
        self.dataplane.communicate(timeout=30)

    def start(self, *args, stdout=subprocess.PIPE):
        """`linerate --socket SOCK ARGS` in the background, its stderr in a file (read_log)."""
        log = open(os.path.join(self.dir, "%s.log" % args[0]), "w+")
        self.addCleanup(log.close)
        proc = subprocess.Popen([LINERATE, "--socket", self.sock, *args], stdout=stdout, stderr=log, text=True)
        self.addCleanup(lambda: proc.poll() is not None or (proc.terminate(), proc.wait(30)))
        proc.log = log.name
        return proc

    @staticmethod
    def read_log(proc):
        with open(proc.log) as f:
            return f.read()

    def test_a_run_cut_short_by_its_data_plane_reports_the_counts_it_saw_and_exits_7(self):
        profile = self.write_profile(lrtest.RING_SERVICE % ("unused", self.sock) + STREAM, "run.toml")
        report_path = os.path.join(self.dir, "run.json")
        run = subprocess.Popen([LINERATE, "--socket", self.sock, "run", profile, "--report", report_path],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: run.poll() is not None or (run.kill(), run.wait(30)))
        # Half a second of traffic: the run has read the counts twice since it started.
        lrtest.wait_until(lambda: [s for s in self.client.result("stats.streams") if s["tx_packets"] >= 10000],
                          "the run's stream to send 10,000 frames")
        self.kill_dataplane()
        out, err = run.communicate(timeout=60)
        self.assertEqual(run.returncode, 7, out + err)
        reason = r"the data plane went away: (the data plane at %s hung up|sending to %s): " % (
            re.escape(self.sock), re.escape(self.sock))
        self.assertRegex(err, r"^linerate: the data plane went away mid-run \(")
        self.assertIn("the report holds the counts last seen\n", err)
        with open(report_path) as f:
            report = json.load(f)
        self.assertTrue(report["interrupted"])
        self.assertRegex(report["interrupted_by"], "^" + reason)
        s1 = self.stream(report, "s1")
        # What the run saw: frames sent, at most what 20 kpps sends in the time it saw.
        self.assertGreaterEqual(s1["tx_packets"], 5000)
        self.assertLessEqual(s1["tx_packets"], 20000 * report["duration_s"] + 64)
        self.assertGreater(self.port(report, "p0")["opackets"], 0)
        self.assertRegex(report["warnings"][-1], r"^the counts are the last seen, \d+\.\d\d s into the run, not final")
        self.assertRegex(out, r"\n\(interrupted: %s.*; the counts are the last seen, \d+\.\d\d s into the run, "
                              r"not final\)\nreport: %s\n" % (reason, re.escape(report_path)))
        # Kept where `report --last` finds it, as a normal run's.
        last = subprocess.run([LINERATE, "--socket", self.sock, "--json", "report", "--last"], capture_output=True,
                              text=True, timeout=60)
        self.assertEqual(last.returncode, 0, last.stderr)
        self.assertEqual(json.loads(last.stdout)["interrupted_by"], report["interrupted_by"])

    def otg_runs_exactly(self, base, name):
        """A 10,000-frame flow configured, started and counted exactly (otg_test's run_exactly)."""
        config = {"ports": [{"name": "tx", "location": "p0"}], "flows": [flow(name)]}
        self.assertEqual(lrtest.otg_call(base, "POST", "/config", config), (200, {"warnings": []}))
        start = {"choice": "traffic", "traffic": {"choice": "flow_transmit", "flow_transmit": {"state": "start"}}}
        self.assertEqual(lrtest.otg_call(base, "POST", "/control/state", start), (200, {"warnings": []}))

        def metrics():
            status, body = lrtest.otg_call(base, "POST", "/monitor/metrics",
                                         {"choice": "flow", "flow": {"flow_names": [name]}})
            self.assertEqual(status, 200, body)
            m = body["flow_metrics"][0]
            return m if m["transmit"] == "stopped" else None
        m = lrtest.wait_until(metrics, "the flow sent its frames")
        self.assertEqual((m["frames_tx"], m["frames_rx"], m["loss"]), (10000, 10000, 0.0))

    @staticmethod
    def scrape(port):
        return urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=20).read().decode()

    def records(self, path):
        with open(path) as f:
            return [json.loads(line) for line in f]

    def test_otg_exporter_record_and_top_say_the_loss_and_the_return_and_serve_again(self):
        otg = self.start("otg", "serve", "--listen", "127.0.0.1:0", "--http")
        base = re.search(r"listening on (\S+:\d+)", otg.stdout.readline()).group(1)
        exporter = self.start("exporter", "--listen", "127.0.0.1:0")
        port = int(exporter.stdout.readline().split()[2].split(":")[1])
        record_path = os.path.join(self.dir, "record.jsonl")
        record = self.start("record", record_path, "--interval", "100ms")
        screen_path = os.path.join(self.dir, "top.out")
        with open(screen_path, "w") as screen:
            top = self.start("top", stdout=screen)
        screens = lambda: open(screen_path).read().split("\033[H\033[2J")  # each screen starts home + clear
        self.assertIn("lr_up 1\n", self.scrape(port))
        lrtest.wait_until(lambda: os.path.exists(record_path) and self.records(record_path), "a first sample")
        # Each front end has read the data plane once before it goes (a loaded host starts them slowly).
        lrtest.wait_until(lambda: "traffic stopped" in screens()[-1], "top's first screen")

        self.kill_dataplane()
        gone = r"(the data plane at {0} hung up.*|sending to {0}: .*|cannot reach the data plane at {0}: .*)".format(
            re.escape(self.sock))
        for _ in range(2):  # the second request finds it away still: answered alike, not said again
            status, body = lrtest.otg_call(base, "POST", "/monitor/metrics", {"choice": "port", "port": {}})
            self.assertEqual((status, body["code"], body["kind"]), (503, 503, "internal"), body)
            self.assertRegex(body["errors"][0], r"^%s; linerate retries with backoff \(POST /config again once it "
                                                r"serves\)$" % gone)
            self.assertIn("lr_up 0\n", self.scrape(port))
        said_away = r"^linerate {0}: the data plane at %s went away \(%s\); {1}\n$" % (re.escape(self.sock), gone)
        for proc, who, meanwhile in ((otg, "otg", "answering 503 and retrying with backoff"),
                                     (exporter, "exporter", r"serving lr_up 0 and retrying with backoff")):
            self.assertRegex(self.read_log(proc), said_away.format(who, meanwhile))
        lrtest.wait_until(lambda: any(r.get("dataplane") == "away" for r in self.records(record_path)),
                          "record's away marker")
        # top: the reason in place of the tables, and nothing on stderr (it would tear the screen).
        away_screen = lrtest.wait_until(lambda: [x for x in screens() if "data plane away" in x], "top's away screen")[0]
        self.assertRegex(away_screen, r"^linerate top  \d\d:\d\d:\d\d  data plane away: %s \(retrying\)\n$" % gone)
        samples_before = len(self.records(record_path)) - 1

        # Back on the same socket: each says so by itself (no request to any of them), once.
        self.dataplane, self.client = self.serve(self.profile, self.sock)
        back = r"^linerate {0}: the data plane at %s serves again \(after \d+\.\d s, \d+ tr(y|ies)\){1}$" % re.escape(
            self.sock)
        for proc, who, then in ((otg, "otg", "; POST /config again"), (exporter, "exporter", ""),
                                (record, "record", "; recording again")):
            lines = lrtest.wait_until(lambda: self.read_log(proc).splitlines()[1:], "%s to say it serves again" % who)
            self.assertEqual(len(lines), 1, lines)
            self.assertRegex(lines[0], back.format(who, re.escape(then)))
            self.assertEqual(len(self.read_log(proc).splitlines()), 2)  # the loss and the return, nothing per try

        # top: rates again from the screen after it says so.
        lrtest.wait_until(lambda: "traffic stopped   (q or Ctrl-C quits" in screens()[-1], "top's tables again")
        self.assertIn("linerate top  ", [x for x in screens() if "serves again" in x][0])
        top.send_signal(signal.SIGINT)
        self.assertEqual((top.wait(30), self.read_log(top)), (0, ""))

        self.assertIn("lr_up 1\n", self.scrape(port))
        self.assertEqual(lrtest.otg_call(base, "GET", "/config"), (200, {}))  # the old session's config went with it
        self.otg_runs_exactly(base, "after")
        self.assertIsNone(otg.poll())

        # record: samples, the away marker (never a sample of zeros), the back marker, samples again.
        lrtest.wait_until(lambda: self.records(record_path)[-1].get("dataplane") is None
                          and self.records(record_path)[-2].get("dataplane") is None, "samples after the return")
        record.send_signal(signal.SIGINT)
        record.wait(30)
        self.assertEqual(record.returncode, 0)
        lines = self.records(record_path)
        markers = [(i, r) for i, r in enumerate(lines) if "dataplane" in r]
        self.assertEqual([r["dataplane"] for _, r in markers], ["away", "back"])
        (away_at, away), (back_at, back_marker) = markers
        self.assertEqual(away_at, samples_before)
        self.assertRegex(away["reason"], "^%s$" % gone)
        self.assertEqual(sorted(away), ["dataplane", "reason", "t", "time"])
        self.assertEqual(sorted(back_marker), ["away_s", "dataplane", "t", "time", "tries"])
        self.assertGreater(back_marker["away_s"], 0)
        self.assertGreaterEqual(back_marker["tries"], 1)
        self.assertEqual(back_at, away_at + 1)  # no line while away: a failed try writes nothing
        samples = [r for r in lines if "dataplane" not in r]
        self.assertEqual(len(samples), len(lines) - 2)
        self.assertTrue(all(r["ports"][0]["name"] == "p0" for r in samples))
        self.assertRegex(self.read_log(record).splitlines()[-1],
                         r"^linerate: recorded %d samples to %s \(the data plane went away 1 time\)$" % (
                             len(samples), re.escape(record_path)))


if __name__ == "__main__":
    lrtest.main()
