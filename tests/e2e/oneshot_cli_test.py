"""The one-shot data plane as a user runs it: reports, exit codes, clear errors, Ctrl-C."""
import json
import os
import signal
import subprocess

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

RING = """
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "100ms"
[[port]]
name = "p0"
device = "net_ring0"
speed = "10G"
"""


class OneShot(lrtest.DataplaneCase):
    def test_count_run_writes_exact_report(self):
        proc, report = self.run_dataplane(RING + """
[[stream]]
name = "s1"
tx_port = "p0"
rx_port = "p0"
frame_size = 64
rate = "1%"
count = 50000
vlan = { id = 100, pcp = 3 }
ipv4 = { src = "198.18.0.1", dst = "198.19.0.1", dscp = 26 }
udp = { src = 1024, dst = 4791 }
""")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("stream 's1' p0 -> p0", proc.stdout)  # the plan is printed
        s = self.stream(report, "s1")
        self.assertEqual(s["tx_packets"], 50000)
        self.assertEqual(s["rx_packets"], 50000)
        self.assertEqual(s["tx_bytes"], 50000 * 64)
        self.assertEqual(s["lost"], 0)
        self.assertEqual(s["duplicate"], 0)
        self.assertEqual(s["out_of_order"], 0)
        self.assertEqual(s["latency_ns"]["samples"], 50000)
        for key in ("min", "mean", "p50", "p90", "p99", "p999", "p9999", "max", "jitter"):
            self.assertIn(key, s["latency_ns"])
        self.assertLessEqual(s["latency_ns"]["min"], s["latency_ns"]["p50"])
        self.assertLessEqual(s["latency_ns"]["p99"], s["latency_ns"]["max"])
        p = self.port(report, "p0")
        self.assertEqual(p["opackets"], 50000)
        self.assertEqual(p["ipackets"], 50000)
        for key in ("imissed", "ierrors", "oerrors"):
            self.assertEqual(p[key], 0)
        self.assertEqual(report["mbufs_not_returned"], 0)
        self.assertFalse(report["interrupted"])

    def test_ctrl_c_stops_drains_and_writes_full_report(self):
        self.check_stop_signal(signal.SIGINT)

    def test_sigterm_stops_drains_and_writes_full_report(self):
        self.check_stop_signal(signal.SIGTERM)

    def check_stop_signal(self, signum):
        profile = self.write_profile(RING + """
[[stream]]
name = "forever"
tx_port = "p0"
rx_port = "p0"
frame_size = 128
rate = "100kpps"
""")
        report_path = os.path.join(self.dir, "report.json")
        proc = subprocess.Popen([lrtest.BINARY, "--config", profile, "--report", report_path],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            # Wait on the event: the first live line, so traffic has run for a second.
            seen = ""
            while not seen.endswith(" Gbit/s\n") and proc.poll() is None:
                seen += proc.stdout.readline()
            proc.send_signal(signum)
            out, err = proc.communicate(timeout=30)
            out = seen + out
        finally:
            if proc.poll() is None:
                proc.kill()
        self.assertEqual(proc.returncode, 0, err)
        self.assertIn("interrupted", out)
        with open(report_path) as f:
            report = json.load(f)
        self.assertTrue(report["interrupted"])
        s = self.stream(report, "forever")
        self.assertGreater(s["tx_packets"], 50000)
        self.assertEqual(s["rx_packets"], s["tx_packets"])
        self.assertEqual(s["lost"], 0)
        self.assertEqual(report["mbufs_not_returned"], 0)

    def test_bad_profile_value_names_file_line_and_reason(self):
        proc, report = self.run_dataplane(RING + """
[[stream]]
name = "s1"
tx_port = "p0"
rate = "fast"
""")
        self.assertEqual(proc.returncode, 2)
        self.assertIsNone(report)
        self.assertRegex(proc.stderr, r"profile\.toml:15:8: key 'stream\[0\]\.rate': 'fast' is not a rate")

    def test_lcores_on_a_cpu_the_host_does_not_give_are_refused_before_eal(self):
        cpus = sorted(os.sched_getaffinity(0))
        absent = cpus[-1] + 1
        proc, report = self.run_dataplane(RING.replace('lcores = "0-1"', 'lcores = "%d-%d"' % (cpus[0], absent)))
        self.assertEqual(proc.returncode, 2)
        self.assertIsNone(report)
        self.assertRegex(proc.stderr, r"profile\.toml: key 'eal\.lcores': CPU %d is not one this process may run on "
                                      r"\(it may use [0-9,-]+\): name lcores among those, e\.g\. \"" % absent)
        self.assertNotIn("EAL", proc.stderr)  # no page of EAL's usage text

    def test_a_user_who_may_not_map_hugepages_is_told_so_before_eal(self):
        with open("/proc/mounts") as f:
            if not any(line.split()[2] == "hugetlbfs" for line in f):
                self.skipTest("no hugetlbfs mounted here")
        profile = self.write_profile(RING.replace('huge_pages = "off"', 'huge_pages = "on"'))
        os.chmod(self.dir, 0o755)
        os.chmod(profile, 0o644)
        proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", lrtest.BINARY,
                               "--config", profile], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertRegex(proc.stderr, r"^linerate-dataplane: this user may not map hugepages \(it cannot write to "
                                      r"/[^)]+\): run it as root, .* or set \[eal\] huge_pages = \"off\"")
        self.assertNotIn("get_seg_fd", proc.stderr)  # not a line per page from EAL

    def test_unknown_device_exits_with_clear_message(self):
        proc, _ = self.run_dataplane(RING.replace("net_ring0", "net_ring0") + """
[[port]]
name = "p1"
device = "net_bogus0"
""")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("EAL initialisation failed", proc.stderr)

    def test_a_port_setting_the_pmd_refuses_ends_the_run_cleanly_before_traffic(self):
        # The engine closes its ports before the EAL is cleaned up: the other order ended in
        # SIGSEGV (exit -11) after the message.
        proc, report = self.run_dataplane(RING.replace('speed = "10G"', 'speed = "10G"\nfec = "rs"') + """
[[stream]]
name = "s1"
tx_port = "p0"
count = 10
""")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIsNone(report)
        self.assertIn("port 'p0' (profile line 7) fec: FEC set is not supported by net_ring on port 0 ('p0') (it has "
                      "no kernel netdev to fall back on): Operation not supported", proc.stderr)

    def test_rate_above_line_rate_is_refused_before_traffic(self):
        proc, report = self.run_dataplane(RING + """
[[stream]]
name = "s1"
tx_port = "p0"
rate = "20Mpps"
""")
        self.assertEqual(proc.returncode, 1)
        self.assertIsNone(report)
        self.assertIn("stream 's1' asks 20.000 Mpps but port 'p0' at 10 Gbit/s carries at most 14.881 Mpps",
                      proc.stderr)

    def test_quiet_start_and_a_transmit_only_null_port_is_not_polled(self):
        proc, report = self.run_dataplane(RING.replace("net_ring0", "net_null0") + """
[[stream]]
name = "out"
tx_port = "p0"
rate = "1%"
count = 1000
""", "-q")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")  # no EAL or telemetry chatter
        self.assertIn("\n    rx not polled: no stream receives here, and net_null's RX is an endless source of empty "
                      "frames\n", proc.stdout)
        p = self.port(report, "p0")
        self.assertEqual((p["opackets"], p["ipackets"], p["rx_no_signature"]), (1000, 0, 0))

    def test_oversubscribed_port_is_refused_naming_streams_and_excess(self):
        proc, report = self.run_dataplane(RING + """
[[stream]]
name = "a"
tx_port = "p0"
rate = "60%"
[[stream]]
name = "b"
tx_port = "p0"
rate = "60%"
""")
        self.assertEqual(proc.returncode, 1)
        self.assertIsNone(report)
        self.assertIn("linerate-dataplane: port 'p0' is oversubscribed: its paced streams ('a' 60.000 %, 'b' 60.000 %) "
                      "add up to 120.000 % of its 10 Gbit/s line rate, 20.000 % more than it carries; lower their "
                      "rates\n", proc.stderr)

    def test_a_max_stream_beside_a_paced_one_is_warned_and_a_missed_target_reported(self):
        proc, report = self.run_dataplane(RING + """
[[stream]]
name = "paced"
tx_port = "p0"
rx_port = "p0"
rate = "10%"
duration = "1s"
[[stream]]
name = "blast"
tx_port = "p0"
rx_port = "p0"
rate = "max"
duration = "1s"
""", "-q")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        shared = ("port 'p0': stream 'blast' sends as fast as the port takes (rate = \"max\") beside paced streams; "
                  "those get what is left, not their rates")
        self.assertIn("\nwarning: " + shared, proc.stdout.split("\n\n")[0])  # with the plan, before traffic
        self.assertEqual(report["warnings"][0], shared)
        paced = self.stream(report, "paced")
        self.assertAlmostEqual(paced["target_pps"], 1488095.238, places=2)
        # The verdict follows the numbers: a miss beyond 0.5 % is named, and only then.
        missed = [w for w in report["warnings"] if w.startswith("stream 'paced' sent ")]
        self.assertEqual(len(missed), 1 if paced["tx_pps_achieved"] < paced["target_pps"] * 0.995 else 0, report)
        self.assertIn("target_Mpps   tx_qfull", proc.stdout)
        self.assertRegex(proc.stdout, r"\nblast +\d+ +[0-9.]+ +max +%d " % self.stream(report, "blast")["tx_queue_full"])

    def test_unwritable_report_is_refused_before_traffic(self):
        profile = self.write_profile(RING)
        proc = subprocess.run([lrtest.BINARY, "--config", profile, "--report", "/nonexistent/dir/r.json"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 4)
        self.assertIn("cannot write the report file '/nonexistent/dir/r.json': no such directory '/nonexistent/dir'\n",
                      proc.stderr)
        self.assertFalse(os.path.exists("/nonexistent"))
        # `linerate run` checks before it starts anything, too.
        run = subprocess.run([LINERATE, "run", profile, "--report", self.dir], capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 4)
        self.assertEqual(run.stderr, "linerate: cannot write the report file '%s': '%s' is a directory\n"
                         % (self.dir, self.dir))

    def test_linerate_run_starts_its_own_data_plane(self):
        # No data plane serves: `linerate run` starts one for the run and stops it after.
        profile = self.write_profile(RING + """
[[stream]]
name = "s1"
tx_port = "p0"
rx_port = "p0"
frame_size = 256
rate = "100kpps"
count = 30000
""")
        report_path = os.path.join(self.dir, "report.json")
        env = dict(os.environ, LINERATE_SOCKET=os.path.join(self.dir, "nobody-serves.sock"))
        before = {d for d in os.listdir("/tmp") if d.startswith("linerate-run-")}
        proc = subprocess.run([LINERATE, "run", profile, "--report", report_path], capture_output=True, text=True,
                              timeout=120, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("stream 's1' p0 -> p0", proc.stdout)  # the data plane's plan
        self.assertRegex(proc.stdout, r"s1 +30000 +[0-9.]+ +0.1000 +0 +30000 +0 +0 +0")
        with open(report_path) as f:
            s = json.load(f)["streams"][0]
        self.assertEqual((s["tx_packets"], s["rx_packets"], s["tx_bytes"], s["lost"]), (30000, 30000, 30000 * 256, 0))
        after = {d for d in os.listdir("/tmp") if d.startswith("linerate-run-")}
        self.assertEqual(after - before, set(), "the run's socket directory is removed")
        # With --json, stdout holds only the report (jq reads it); the plan stays off it.
        as_json = subprocess.run([LINERATE, "--json", "run", profile, "-q"], capture_output=True, text=True,
                                 timeout=120, env=env)
        self.assertEqual(as_json.returncode, 0, as_json.stderr)
        self.assertEqual(json.loads(as_json.stdout)["streams"][0]["rx_packets"], 30000)
        # Without --report the report is kept where `linerate report --last` finds it after the
        # run's data plane is gone, and its path is said.
        kept = os.path.join(self.dir, "state", "linerate", "last-report.json")
        plain = subprocess.run([LINERATE, "run", profile, "-q"], capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertIn("\nreport: %s\n" % kept, plain.stdout)
        last = subprocess.run([LINERATE, "--json", "report", "--last"], capture_output=True, text=True, timeout=60,
                              env=env)
        self.assertEqual(last.returncode, 0, last.stderr)
        with open(kept) as f:
            self.assertEqual(json.loads(last.stdout), json.load(f))
        self.assertEqual(json.loads(last.stdout)["streams"][0]["rx_packets"], 30000)
        os.remove(kept)
        none = subprocess.run([LINERATE, "report", "--last"], capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(none.returncode, 1)
        self.assertEqual(none.stderr, "linerate: no run has ended yet (no data plane has one, and none is kept in "
                                      "%s)\n" % kept)
        # A profile error is the data plane's exit code and message, from either program.
        bad = self.write_profile(RING + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrat = \"1%\"\n", "typo.toml")
        from_cli = subprocess.run([LINERATE, "run", bad], capture_output=True, text=True, timeout=60, env=env)
        from_dataplane = subprocess.run([lrtest.BINARY, "--config", bad], capture_output=True, text=True, timeout=60)
        self.assertEqual((from_cli.returncode, from_dataplane.returncode), (2, 2))
        self.assertEqual(from_cli.stderr.replace("linerate:", "linerate-dataplane:", 1), from_dataplane.stderr)

    def test_module_decode(self):
        # An SFP28 image built from SFF-8472: A0h serial ID, A2h thresholds and live values.
        b = bytearray(512)
        b[0], b[2], b[3], b[12], b[66], b[92] = 0x03, 0x07, 0x10, 0xFF, 103, 0x68
        b[20:36] = b"ACME OPTICS".ljust(16)
        b[40:56] = b"SFP28-SR-100".ljust(16)
        b[60:62] = (850).to_bytes(2, "big")
        b[63] = sum(b[0:63]) & 0xFF
        b[95] = sum(b[64:95]) & 0xFF
        for at, v in [(32, 12589), (34, 398), (36, 10000), (38, 501), (96, int(35.5 * 256)), (104, 400)]:
            b[256 + at:258 + at] = v.to_bytes(2, "big")
        path = os.path.join(self.dir, "sfp.bin")
        with open(path, "wb") as f:
            f.write(b)
        out = subprocess.run([LINERATE, "module", "decode", path], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r"Vendor PN +: SFP28-SR-100\n")
        self.assertRegex(out.stdout, r"rx_power +: 0\.0400 mW / -13\.98 dBm\n")
        self.assertRegex(out.stdout, r"rx_power status +: BEYOND: low warning\n")
        js = json.loads(subprocess.run([LINERATE, "--json", "module", "decode", path], capture_output=True,
                                       text=True).stdout)
        self.assertEqual(js["monitors"][0]["value"], 35.5)
        # A QSFP28 (SFF-8636) dump: lane 3 below its page 03h low alarm.
        q = bytearray(640)
        q[0] = q[128] = 0x11
        q[168:184] = b"QSFP28-SR4".ljust(16)
        for lane in range(4):
            q[34 + 2 * lane:36 + 2 * lane] = (200 if lane == 2 else 6000).to_bytes(2, "big")
        q[512 + 176 - 128:512 + 176 - 128 + 4] = (34674).to_bytes(2, "big") + (355).to_bytes(2, "big")  # RX high/low alarm
        q[191] = sum(q[128:191]) & 0xFF
        q[223] = sum(q[192:223]) & 0xFF
        qpath = os.path.join(self.dir, "qsfp.bin")
        with open(qpath, "wb") as f:
            f.write(q)
        qout = subprocess.run([LINERATE, "module", "decode", qpath], capture_output=True, text=True)
        self.assertEqual(qout.returncode, 0, qout.stderr)
        self.assertRegex(qout.stdout, r"Identifier +: 0x11 \(QSFP28\)\n")
        self.assertRegex(qout.stdout, r"rx_power\[3\] status +: BEYOND: low alarm\n")
        # --json after the subcommand, as docs/guide/traffic.md writes it.
        qjs = subprocess.run([LINERATE, "module", "decode", qpath, "--json"], capture_output=True, text=True)
        self.assertEqual(json.loads(qjs.stdout)["identifier"], 0x11)
        # A checksum that does not hold still decodes, and the exit status says so.
        q[200] ^= 0xFF
        with open(qpath, "wb") as f:
            f.write(q)
        bad_sum = subprocess.run([LINERATE, "module", "decode", qpath], capture_output=True, text=True)
        self.assertEqual(bad_sum.returncode, 5)
        self.assertRegex(bad_sum.stdout, r"Identifier +: 0x11 \(QSFP28\)\n")
        self.assertEqual(bad_sum.stderr, "linerate: %s: checksums BAD (base ok, extended BAD): the image may be corrupt "
                                         "or misread\n" % qpath)
        with open(qpath, "wb") as f:
            f.write(bytes(640))
        blank = subprocess.run([LINERATE, "module", "decode", qpath], capture_output=True, text=True)
        self.assertEqual((blank.returncode, blank.stderr), (1, "linerate: %s: byte 0 (identifier) is 0x00: no module "
                                                                "type is set (a blank, unprogrammed or unread EEPROM)\n"
                                                            % qpath))
        with open(path, "wb") as f:
            f.write(b[:100])
        short = subprocess.run([LINERATE, "module", "decode", path], capture_output=True, text=True)
        self.assertEqual(short.returncode, 1)
        self.assertIn("SFF-8472 image is 100 bytes; the A0h page needs 256", short.stderr)

    def test_bash_completion_and_version(self):
        script = subprocess.run([LINERATE, "completion", "bash"], capture_output=True, text=True, check=True).stdout
        def complete(line):
            words = line.split(" ")
            probe = ("source /dev/stdin <<'EOF'\n%s\nEOF\nCOMP_WORDS=(%s); COMP_CWORD=%d; _linerate; "
                     "printf '%%s\\n' \"${COMPREPLY[@]}\"" % (script, " ".join("'%s'" % w for w in words), len(words) - 1))
            return subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout.split()
        self.assertEqual(complete("linerate por"), ["port", "ports", "port-set"])
        self.assertEqual(complete("linerate --json run --pl"), ["--plan-only"])
        self.assertEqual(complete("linerate module decode --h"), ["--help", "--hex"])
        self.assertEqual(complete("linerate port re"), ["restore"])
        version = subprocess.run([LINERATE, "--version"], capture_output=True, text=True)
        self.assertRegex(version.stdout, r"^linerate \d+\.\d+\.\d+\n$")
        dp_version = subprocess.run([lrtest.BINARY, "--version"], capture_output=True, text=True)
        self.assertEqual(dp_version.stdout, version.stdout.replace("linerate", "linerate-dataplane"))

    def test_a_mistyped_subcommand_is_named_with_the_nearest(self):
        for args, said in ((["stat"], "unknown subcommand 'stat' (did you mean 'stats'?)"),
                           (["version"], "unknown subcommand 'version' (did you mean '--version'?)"),
                           (["--json", "prts"], "unknown subcommand 'prts' (did you mean 'ports'?)"),
                           (["xyzzy"], "unknown subcommand 'xyzzy' (linerate --help lists them)")):
            proc = subprocess.run([LINERATE, *args], capture_output=True, text=True, timeout=30)
            self.assertEqual((proc.returncode, proc.stderr), (2, "linerate: %s\n" % said))
        # A known subcommand with a bad option keeps CLI11's own words.
        proc = subprocess.run([LINERATE, "stats", "--bogus"], capture_output=True, text=True, timeout=30)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--bogus", proc.stderr)

    def test_bad_cli_argument(self):
        proc = subprocess.run([lrtest.BINARY, "--config"], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--config", proc.stderr)
        # A folder to remove is the --socket's: without one, refused before anything starts.
        proc = subprocess.run([lrtest.BINARY, "--config", "unused.toml", "--serve",
                               "--remove-socket-dir"], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--remove-socket-dir requires --socket", proc.stderr)


if __name__ == "__main__":
    lrtest.main()
