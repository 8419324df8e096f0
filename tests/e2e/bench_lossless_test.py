"""`linerate bench lossless` against linerate's software lossless switch, in one process
(config/examples/lossless_plan.toml): every case passes against the switch as configured,
and each fails against a switch configured to be wrong in the way the case looks for. The
timelines of the PFC case show the paused priority at zero during the storm and the
background unchanged, read from report.json."""
import csv
import json
import os
import re
import subprocess
import sys
import unittest

import benchreport
import lrtest

PLAN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "config", "examples", "lossless_plan.toml")


class LosslessPlan(lrtest.DataplaneCase):
    def plan(self, cases, receiver=(), plan_lines=(), **switch):
        """Runs the example plan's `cases`; `receiver`: lines to add to the receiver's
        [[port]]; `plan_lines`: lines of [lossless] to replace, by key; `switch`: keys of its
        [[switch]] to set (TOML values, as text) or, given None, to remove."""
        with open(PLAN) as f:
            lines = f.read().split("\n")
        for line in plan_lines:
            key = line.split(" = ")[0] + " = "
            at = [i for i in range(lines.index("[lossless]"), len(lines)) if lines[i].startswith(key)]
            lines[at[0]] = line
        at = lines.index('name = "receiver"') + 1
        lines[at:at] = list(receiver)
        for key, value in switch.items():
            first, end = lines.index("[[switch]]"), lines.index("[lossless]")
            at = [i for i in range(first, end) if lines[i].startswith(key + " = ")]
            new = [] if value is None else ["%s = %s" % (key, value)]
            if at:
                lines[at[0]:at[0] + 1] = new
            else:
                lines[end - 1:end - 1] = new  # before the blank line that ends the table
        text = "\n".join(lines).replace("[lossless]\n", "[lossless]\ncases = %s\n" % json.dumps(cases))
        profile = self.write_profile(text)
        out = os.path.join(self.dir, "out")
        env = dict(os.environ, LINERATE_SOCKET=os.path.join(self.dir, "nobody.sock"))
        proc = subprocess.run([sys.modules["__main__"].LINERATE, "bench", "lossless", profile, "--report-dir", out],
                              capture_output=True, text=True, timeout=280, env=env)
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        return proc, report, {c["case"]: c for c in report["cases"]}

    @staticmethod
    def not_judged(case):
        """Whether the plan left the case unjudged because the host spoiled every run of it."""
        return case["verdict"] == "SKIPPED" and case["explanation"].startswith("not judged:")

    def assert_passes(self, case):
        """A case against the switch as configured: PASS, or not judged (said, and skipped)."""
        if self.not_judged(case):
            self.skipTest(case["explanation"])
        self.assertEqual(case["verdict"], "PASS", case)

    def assert_fails(self, case):
        """A case against a switch configured wrong: FAIL. (Should the host hold linerate's
        own switch up in every run, the plan says the case was not judged: the test then
        cannot show the failure, and says so rather than passing.)"""
        if case["verdict"] == "SKIPPED" and case["explanation"].startswith("not judged:"):
            self.skipTest(case["explanation"])
        self.assertEqual(case["verdict"], "FAIL", case)

    def test_every_case_passes_against_the_switch_as_configured(self):
        proc, report, cases = self.plan(["pfc_pause", "lossy_not_paused", "global_pause", "response_time",
                                         "quanta_sweep", "headroom", "incast", "watchdog", "ecn"])
        self.assertEqual(report["schema"], "linerate.lossless/1")
        # Every case passes but those the host kept from being judged (every run of them spoiled:
        # the plan says so, and the test says which).
        judged = {}
        for name, c in cases.items():
            if self.not_judged(c):
                print("not judged, case %s: %s" % (name, c["explanation"]), flush=True)
                continue
            self.assertEqual(c["verdict"], "PASS", (name, c))
            self.assertTrue(all(check["ok"] for check in c["checks"]), c)
            judged[name] = c
        if not judged:
            self.skipTest("not judged: the host spoiled every case")
        # 0 when every case passed; 6 when none failed but one was not judged (no pass either).
        self.assertEqual(proc.returncode, 0 if len(judged) == len(cases) else 6, proc.stdout + proc.stderr)
        # Each check's number beside its bound, and the runs each case took.
        self.assertIn("\nchecks (measured beside the bound)\n", proc.stdout)
        for name in cases:
            self.assertRegex(proc.stdout, r"(?m)^  %s +\d+ runs?, \d+ invalid" % name)
        if "pfc_pause" in judged:
            self.assertRegex(proc.stdout, r"(?m)^  pfc_pause +test: frames lost +0 frames += 0 frames +ok$")
            self.assertRegex(proc.stdout, r"(?m)^pfc_pause +PASS +priority 3 held for the whole storm")
            self.check_pfc_pause_run(report, cases["pfc_pause"])
        if "watchdog" in judged:
            # The watchdog, timed from the traffic: detection 150 ms, restoration 50 ms after the XON.
            detection, dropped, restoration = (c["value"] for c in cases["watchdog"]["checks"])
            self.assertGreater(dropped, 0)
            # To the millisecond. A hold-up of the tester or the switch that the run's validity lets
            # through (under half the case's tolerance) can move a time by as much: a time off by
            # no more than the run's longest recorded hold-up is not judged, and said so.
            run = next(t["report"] for t in report["trials"] if t["case"] == "watchdog" and not t["invalid_reason"])
            held_us = max([s["us"] for l in run.get("lcores", []) for s in l.get("longest_stalls", [])] +
                          [s["us"] for sw in run.get("switches", []) for s in sw.get("longest_stalls", [])] + [0])
            for what, measured, expected in (("detection", detection, 150000), ("restoration", restoration, 50000)):
                off = abs(measured - expected)
                if off > 1000 and off - 1000 <= held_us:
                    print("not judged, watchdog %s: %.0f us from %d us, and the host held the tester or the switch "
                          "up for %.0f us in that run" % (what, off, expected, held_us), flush=True)
                    continue
                self.assertAlmostEqual(measured, expected, delta=1000, msg=what)
        if "quanta_sweep" in judged:
            # The quanta: 512 bit times at 10G each.
            checks = {c["what"]: c for c in cases["quanta_sweep"]["checks"]}
            self.assertAlmostEqual(checks["pause at 65535 quanta (expected 3355.392 us)"]["value"], 3355.392, delta=335)
        # The views, rebuilt from report.json: a CSV row per check, the page with a chart per case.
        with open(os.path.join(self.dir, "out", "results.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), sum(len(c["checks"]) for c in cases.values()))
        self.assertEqual({r["verdict"] for r in rows if r["case"] in judged}, {"PASS"})
        # `linerate report` rebuilds the same views from report.json.
        rebuilt = os.path.join(self.dir, "rebuilt.csv")
        subprocess.run([sys.modules["__main__"].LINERATE, "report", os.path.join(self.dir, "out", "report.json"),
                        "--csv", rebuilt], check=True, capture_output=True)
        with open(rebuilt) as a, open(os.path.join(self.dir, "out", "results.csv")) as b:
            self.assertEqual(a.read(), b.read())
        dom = benchreport.check_page_in_browser(self, os.path.join(self.dir, "out", "report.html"),
                                                ["chart-pfc_pause-0", "chart-headroom-5", "chart-watchdog-7", "chart-ecn-8"])
        summary = benchreport.check_summary(self, dom, "linerate's software lossless switch 'dut'",
                                            {p: "10 Gbit/s" for p in ("sender-a", "sender-b", "receiver")})
        self.assertIn("%d cases: " % len(cases), summary)
        # Every case's runs, the invalid ones with why; the storm shaded on the timelines.
        runs = re.search(r"<h2>Runs</h2>.*?</table>", dom, re.S).group(0)
        for name in cases:
            spoiled = [t for t in report["trials"] if t["case"] == name and t["invalid_reason"]]
            self.assertRegex(runs, r'%s</td><td class="num">%d</td><td class="num">(<span class="WARN">)?%d' % (
                name, len([t for t in report["trials"] if t["case"] == name]), len(spoiled)))
        self.assertIn(">storm<", dom)
        # The switch's own counters are in each run: what it marked, the tester counted CE.
        ecn_runs = [t["report"] for t in report["trials"] if t["case"] == "ecn" and not t["invalid_reason"]]
        for r in ecn_runs:
            (sw,) = r["switches"]
            egress = {p["name"]: p for p in sw["ports"]}["dut-r"]
            marked = sum(c["ecn_marked"] for c in egress["priorities"])
            self.assertEqual(marked, {s["name"]: s for s in r["streams"]}["test"]["ecn_ce"])

    def check_pfc_pause_run(self, report, case):
        # Case 1's timelines, from the run it kept: priority 3 received nothing during the
        # storm (planned for 50-150 ms; after the reaction allowance, and the tester's own
        # lateness of up to 1 ms), the background went on at its rate. (Runs the host made
        # invalid are kept too, each with its reason; one run was valid.)
        (run,) = [t["report"] for t in report["trials"] if t["case"] == "pfc_pause" and not t["invalid_reason"]]
        streams = {s["name"]: s for s in run["streams"]}
        test, background = streams["test"]["timeline"], streams["background"]["timeline"]
        bin_s = test["bin_s"]
        inside = range(int(0.052 / bin_s) + 1, int(0.150 / bin_s))
        self.assertEqual(sum(test["rx"][i] for i in inside), 0)
        self.assertGreater(sum(test["rx"][int(0.160 / bin_s):]), 0, "it resumed after the storm")
        sent = sum(background["tx"][i] for i in inside)
        got = sum(background["rx"][i] for i in inside)
        self.assertGreater(sent, 0.8 * 0.099 * 239464)  # 20 % of 10G in 1024-byte frames, less a busy VM's shortfall
        self.assertGreaterEqual(got, 0.98 * sent)
        # What a DUT's own counters should show, from the tester's counts (here also in the switch's).
        storm_sent = streams["storm"]["tx_packets"]
        self.assertIn("'storm': %d PFC / PAUSE frames sent to the device from 'receiver'" % storm_sent,
                      case["compare_with_dut"][0])
        self.assertIn("'test': %d frames sent to the device from 'sender-a', %d received from it (0 it dropped)"
                      % (streams["test"]["tx_packets"], streams["test"]["tx_packets"]), case["compare_with_dut"][0])
        # The switch says when it was held up: its longest stalls, longest first, each within the
        # run; so does each of the tester's lcores.
        self.assertEqual(sorted(l["lcore"] for l in run["lcores"]), [1])
        (sw,) = run["switches"]
        lengths = [s["us"] for s in sw["longest_stalls"]]
        self.assertEqual(lengths, sorted(lengths, reverse=True))
        self.assertAlmostEqual(max(lengths, default=0), sw["longest_stall_us"], places=3)
        self.assertTrue(all(20 < s["us"] and 0 <= s["from_s"] < run["duration_s"] + 1 for s in sw["longest_stalls"]))
        gap = test["longest_rx_gap"]
        self.assertLess(gap["from_s"], 0.0515)
        self.assertGreater(gap["to_s"], 0.150)

    def test_a_switch_that_ignores_pfc_fails_the_pause_case(self):
        proc, report, cases = self.plan(["pfc_pause"], pfc_honour="[]")
        self.assert_fails(cases["pfc_pause"])
        self.assertEqual(proc.returncode, 3)

    def test_a_switch_that_pauses_a_lossy_priority_fails_case_2(self):
        proc, report, cases = self.plan(["lossy_not_paused"], pfc_honour="[0, 3]")
        c = cases["lossy_not_paused"]
        self.assert_fails(c)
        # Held with nowhere to go, the lossy queue tail-drops: lost frames, or a silence.
        self.assertRegex(c["explanation"], r"^test: (frames lost|longest silence)")

    def test_a_switch_that_obeys_pause_fails_the_global_pause_case(self):
        proc, report, cases = self.plan(["global_pause"], pause_honour="true")
        self.assert_fails(cases["global_pause"])

    def test_a_slow_reaction_fails_the_response_time_case(self):
        proc, report, cases = self.plan(["response_time"], pause_reaction='"2ms"')
        c = cases["response_time"]
        self.assert_fails(c)
        self.assertGreater(c["checks"][0]["value"], 1900)  # us: the 2 ms it waited

    def test_a_switch_with_less_headroom_gives_a_smaller_figure_and_fails_case_6(self):
        def figure(cases):
            (c,) = [c for c in cases["headroom"]["checks"] if c["what"].startswith("largest delay without loss")]
            return c["value"]
        _, _, as_configured = self.plan(["headroom"])
        self.assert_passes(as_configured["headroom"])
        proc, report, small = self.plan(["headroom"], headroom='"1MB"')
        self.assert_fails(small["headroom"])
        # 4 MB of headroom held the sender 15 ms late (3.7 MB at 20 % of 10G); 1 MB, 3 ms (0.7 MB).
        self.assertGreater(figure(as_configured), 3e6)
        self.assertLess(figure(small), 1e6)
        self.assertRegex(small["headroom"]["explanation"], r"frames lost")

    def test_a_switch_without_lossless_queues_fails_the_incast_case(self):
        # Priority 3 tail-drops like any other: the lossless class loses, and no PFC comes.
        proc, report, cases = self.plan(["incast"], lossless="[]")
        c = cases["incast"]
        self.assert_fails(c)
        self.assertRegex(c["explanation"], r"^lossless: frames lost")
        lost, heard = c["checks"][0]["value"], c["checks"][1]["value"]
        self.assertGreater(lost, 1000)
        self.assertEqual(heard, 0)

    def test_a_watchdog_quicker_than_configured_fails_the_watchdog_case(self):
        proc, report, cases = self.plan(["watchdog"], watchdog='{ detect = "100ms", restore = "50ms", action = "drop" }')
        c = cases["watchdog"]
        self.assert_fails(c)
        self.assertAlmostEqual(c["checks"][0]["value"], 100000, delta=1000)  # us: it found the storm at 100 ms

    def test_a_switch_without_a_watchdog_fails_the_watchdog_case(self):
        proc, report, cases = self.plan(["watchdog"], watchdog=None)
        c = cases["watchdog"]
        self.assert_fails(c)
        self.assertEqual(c["checks"][1]["value"], 0)  # nothing dropped: the storm held it to the end

    def test_a_case_the_tester_cannot_send_is_skipped_with_the_reason(self):
        # The receiver's MAC Control frames must leave through a kernel netdev its in-process
        # cable does not have: the data plane refuses each case's storm, and the plan skips
        # the case, saying why, goes on to the next, and does not exit 0.
        proc, report, cases = self.plan(["pfc_pause", "ecn"], receiver=['mac_control_tx = "netdev"'])
        for name in ("pfc_pause", "ecn"):
            c = cases[name]
            self.assertEqual(c["verdict"], "SKIPPED", c)
            self.assertRegex(c["explanation"], r"^the tester cannot run it here: .*stream 'storm': port 'receiver' "
                                               r"\(net_ring\) cannot send MAC Control frames: .*no kernel netdev")
            self.assertEqual(c["checks"], [])
            self.assertRegex(proc.stdout, r"(?m)^%s +SKIPPED +the tester cannot run it here" % name)
        self.assertEqual(proc.returncode, 6)  # nothing failed, nothing passed: not 0, and not a FAIL's 3

    def test_a_plan_without_a_timeline_is_refused_before_traffic(self):
        # Without [run] timeline the cases see no pause and no silence: every timing case would
        # fail the device for the tester's blindness. Refused at once, at the key, exit 2.
        with open(PLAN) as f:
            text = f.read()
        self.assertIn('\ntimeline = "10us"', text)
        profile = self.write_profile(re.sub(r'\ntimeline = "10us"[^\n]*', "", text))
        out = os.path.join(self.dir, "out")
        proc = subprocess.run([sys.modules["__main__"].LINERATE, "bench", "lossless", profile, "--report-dir", out],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertRegex(proc.stderr, r"\.toml:\d+:\d+: key 'run.timeline': the lossless plan reads pauses, silences "
                                      r"and reaction times from the receiver's rate timeline: add `timeline = \"10us\"` "
                                      r"to \[run\]")
        self.assertFalse(os.path.exists(os.path.join(out, "report.json")))  # no traffic, no report

    def test_checks_a_device_doing_nothing_would_pass_are_not_judged(self):
        # A pause of 1024 quanta (52 us at 10G) held to +- 150 us, and 150 KB of fill where
        # 12.2 +- 13.8 marks are expected: a device that ignores the PFC, or never marks, passes
        # both. Shown, not judged, and with nothing else judged the cases are SKIPPED saying
        # what would tell such a device apart; exit 6, neither a pass nor a FAIL.
        proc, report, cases = self.plan(["quanta_sweep", "ecn"], plan_lines=[
            "quanta = [0, 1024]",
            'ecn = { kmin = "50KB", kmax = "250KB", pmax = 0.5, fill = ["40KB", "150KB"] }'])
        quanta, ecn = cases["quanta_sweep"], cases["ecn"]
        if self.not_judged(quanta) or self.not_judged(ecn):
            self.skipTest("%s / %s" % (quanta["explanation"], ecn["explanation"]))
        self.assertEqual(quanta["verdict"], "SKIPPED", quanta)
        self.assertEqual(quanta["explanation"], "no quanta in the sweep is longer than its tolerance: a device that "
                                                "ignores the PFC would pass; 3321 quanta or more tell it apart")
        zero, short = quanta["checks"]
        self.assertNotIn("not_judged", zero)  # no pause asked: a device that pauses anyway fails it
        self.assertEqual(short["what"], "pause at 1024 quanta (expected 52.429 us)")
        self.assertEqual(short["not_judged"], "a device that ignores the PFC (a pause of 0 us, or the host's "
                                              "unreported hold-up under 20 us) would pass too; 3321 quanta or more "
                                              "tell it apart")
        self.assertEqual(ecn["verdict"], "SKIPPED", ecn)
        self.assertEqual(ecn["explanation"], "no fill is deep enough that a device that never marks would fail (the "
                                             "shallowest that is: 161792 bytes)")
        below_kmin, marks_150k, lost_150k = ecn["checks"][0], ecn["checks"][2], ecn["checks"][3]
        self.assertNotIn("not_judged", below_kmin)  # none may be marked below Kmin: judged
        self.assertEqual(marks_150k["bound"], "12.2 +- 13.8")
        self.assertEqual(marks_150k["not_judged"], "a device that never marks would pass too; a fill of 161792 bytes or "
                                                   "more tells it apart")
        self.assertNotIn("not_judged", lost_150k)
        self.assertRegex(proc.stdout, r"(?m)^quanta_sweep +SKIPPED +no quanta in the sweep")
        self.assertEqual(proc.returncode, 6, proc.stdout + proc.stderr)
        with open(os.path.join(self.dir, "out", "results.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([r["not_judged"] for r in rows if r["case"] == "quanta_sweep"], ["", short["not_judged"]])
        # Against a switch that ignores the PFC, the judged check still fails the sweep.
        proc, report, cases = self.plan(["quanta_sweep"], plan_lines=["quanta = [1024, 4096]"], pfc_honour="[]")
        self.assert_fails(cases["quanta_sweep"])
        self.assertRegex(cases["quanta_sweep"]["explanation"], r"^pause at 4096 quanta")
        self.assertEqual(proc.returncode, 3)

    def test_a_mis_set_ecn_curve_fails_the_ecn_case(self):
        proc, report, cases = self.plan(["ecn"], ecn='{ kmin = "200KB", kmax = "400KB", pmax = 0.1 }')
        self.assert_fails(cases["ecn"])


if __name__ == "__main__":
    lrtest.main()
