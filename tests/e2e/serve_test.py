"""Service mode: linerate-dataplane --serve on net_ring, driven over its control socket
by raw JSON-RPC clients and by the `linerate` CLI: sessions and port ownership, clients
that vanish mid-run, malformed and oversized requests, live rate changes, and the report
of a run that is still going when the service is stopped."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import unittest
import urllib.request

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

PROFILE = lrtest.RING_SERVICE + """[[stream]]
name = "s1"
tx_port = "p0"
rx_port = "p0"
frame_size = 128
rate = "20kpps"
"""


Client = lrtest.Client


class Serve(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.sock_path = os.path.join(self.dir, "dp.sock")
        self.prefix = "lr-e2e-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + self.prefix, True)
        profile = self.write_profile(PROFILE % (self.prefix, self.sock_path))
        self.report = os.path.join(self.dir, "final.json")
        self.proc = subprocess.Popen([lrtest.BINARY, "--config", profile, "--serve", "--report", self.report],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(self.stop_service)
        lrtest.wait_for_socket(self, self.proc, self.sock_path)
        self.assertEqual(os.stat(self.sock_path).st_mode & 0o777, 0o660)

    def stop_service(self, signum=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(signum)
            try:
                self.out, self.err = self.proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise
        return self.proc.returncode

    def cli(self, *args):
        return subprocess.run([LINERATE, "--socket", self.sock_path, *args], capture_output=True, text=True, timeout=60)

    def stream_stats(self, client):
        return client.result("stats.streams")[0]

    def test_ownership_is_per_session_and_ends_with_the_connection(self):
        a, b = Client(self.sock_path), Client(self.sock_path)
        session_a = a.result("hello", client="owner-a")["session"]
        self.assertEqual(a.result("session.acquire", ports=["p0"])["owned"], ["p0"])
        self.assertEqual(b.result("port.list")[0]["owner"], session_a)  # read-only calls stay open
        refused = b.call("stream.rate.set", stream="s1", rate="1kpps")
        self.assertEqual(refused["error"]["code"], -32001)
        self.assertIn("port 'p0' is owned by session %d ('owner-a', pid %d" % (session_a, os.getpid()),
                      refused["error"]["message"])
        self.assertEqual(b.call("traffic.start")["error"]["code"], -32001)
        a.close()  # the owner goes away: its ports are free
        for _ in range(100):
            if b.result("port.list")[0]["owner"] is None:
                break
            time.sleep(0.02)
        self.assertEqual(b.result("stream.rate.set", stream="s1", rate="1kpps")["target_pps"], 1000.0)
        b.close()

    def test_client_killed_mid_run_leaves_traffic_running(self):
        # A separate process owns the port, starts traffic, and is killed with SIGKILL.
        script = ("import json,socket,time,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f=s.makefile('rw')\n"
                  "for m,p in (('session.acquire',{'ports':['p0']}),('traffic.start',{})):\n"
                  "  f.write(json.dumps({'jsonrpc':'2.0','id':1,'method':m,'params':p})+'\\n'); f.flush(); f.readline()\n"
                  "print('started', flush=True); time.sleep(60)")
        owner = subprocess.Popen([sys.executable, "-c", script, self.sock_path], stdout=subprocess.PIPE, text=True)
        self.assertEqual(owner.stdout.readline().strip(), "started")
        owner.kill()
        owner.wait()
        client = Client(self.sock_path)
        first = self.stream_stats(client)
        second = lrtest.wait_for_frames(client, tx=first["tx_packets"] + 1000)
        self.assertGreater(second["tx_packets"], first["tx_packets"], "traffic goes on without its client")
        self.assertGreaterEqual(second["rx_packets"], first["rx_packets"])
        self.assertTrue(client.result("traffic.status")["running"])
        report = client.result("traffic.stop")  # the port is free again
        s = report["streams"][0]
        self.assertGreaterEqual(s["tx_packets"], second["tx_packets"])
        self.assertEqual(s["rx_packets"], s["tx_packets"])
        self.assertEqual(s["lost"], 0)
        self.assertEqual(report["mbufs_not_returned"], 0)
        client.close()

    def test_malformed_and_oversized_requests_leave_it_answering(self):
        client = Client(self.sock_path)
        client.result("traffic.start")
        bad_lines = ["not json", "[]", "{}", '{"jsonrpc":"2.0"}', '{"jsonrpc":"1.0","id":1,"method":"hello"}',
                     '{"jsonrpc":"2.0","id":1,"method":"stream.rate.set","params":{"stream":5,"rate":"1kpps"}}',
                     '{"jsonrpc":"2.0","id":1,"method":"stream.rate.set","params":{"stream":"s1","rate":"fast"}}',
                     '{"jsonrpc":"2.0","id":1,"method":"stream.rate.set","params":{"stream":"zz","rate":"1kpps"}}',
                     '{"jsonrpc":"2.0","id":1,"method":"port.xstats","params":{"port":"p9"}}',
                     '{"jsonrpc":"2.0","id":1,"method":"no.such.method"}', "\x00\xff\xfe garbage"]
        expected = [-32700, -32600, -32600, -32600, -32600, -32602, -32602, -32602, -32602, -32601, -32700]
        for _ in range(20):
            for line, code in zip(bad_lines, expected):
                self.assertEqual(client.send_line(line)["error"]["code"], code, line)
        # A million deep (2 MB): refused before a tree is built, naming the byte; the session stays.
        deep = '{"jsonrpc":"2.0","id":1,"method":"hello","params":{"x":' + "[" * 1000000 + "]" * 1000000 + "}}"
        reply = client.send_line(deep)
        self.assertEqual(reply["error"], {"code": -32600, "message": "request is JSON nested deeper than 64 levels at "
                                                                     "byte 118"})
        self.assertEqual(client.result("hello")["protocol"], 2)
        # A line over the 64 MiB limit: read to its newline, discarded, answered; the session stays,
        # and what follows the newline is the next request.
        limit = 64 * 1024 * 1024
        big = Client(self.sock_path)
        big.result("hello")
        big.sock.sendall(b'{"jsonrpc":"2.0","id":1,"method":"hello","params":{"x":"' + b"x" * limit + b'"}}\n' +
                         b'{"jsonrpc":"2.0","id":2,"method":"hello"}\n')
        reply = json.loads(big.file.readline())
        self.assertEqual(reply["error"], {"code": -32000, "message": "request of %d bytes exceeds the %d-byte limit; it "
                                          "was read to its newline and discarded (the session stays open)"
                                          % (limit + 59, limit)})
        self.assertEqual(json.loads(big.file.readline())["result"]["protocol"], 2)
        self.assertEqual(big.result("hello")["protocol"], 2)
        big.close()
        # Still answering, traffic untouched, counters intact.
        self.assertEqual(client.result("hello")["protocol"], 2)
        self.assertTrue(client.result("traffic.status")["running"])
        lrtest.wait_for_frames(client, tx=1000, rx=1000)
        report = client.result("traffic.stop")
        s = report["streams"][0]
        self.assertGreater(s["tx_packets"], 0)
        self.assertEqual(s["rx_packets"], s["tx_packets"])
        self.assertEqual(s["lost"], 0)
        self.assertEqual(s["target_pps"], 20000.0)  # the refused rate changes changed nothing
        client.close()

    def test_rate_change_while_running(self):
        client = Client(self.sock_path)
        client.result("stream.rate.set", stream="s1", rate="200kpps")
        client.result("traffic.start")
        lrtest.wait_for_frames(client, tx=10000)
        self.assertEqual(client.result("stream.rate.set", stream="s1", rate="500pps")["target_pps"], 500.0)
        time.sleep(0.05)
        before, t0 = self.stream_stats(client)["tx_packets"], time.monotonic()
        time.sleep(0.5)
        after, t1 = self.stream_stats(client)["tx_packets"], time.monotonic()
        # An upper bound only (CI never asserts that a rate was reached): 500 pps from here on.
        self.assertLessEqual(after - before, 500 * (t1 - t0) + 2)
        self.assertEqual(client.result("stream.list")[0]["target_pps"], 500.0)
        report = client.result("traffic.stop")
        self.assertEqual(report["streams"][0]["lost"], 0)
        # The report keeps every target the run had, from when it held.
        changes = report["streams"][0]["rate_changes"]
        self.assertEqual([c["target_pps"] for c in changes], [200000.0, 500.0])
        self.assertEqual(changes[0]["at_s"], 0)
        self.assertGreater(changes[1]["at_s"], 0)
        self.assertLess(changes[1]["at_s"], report["duration_s"])
        # A new run keeps the new rate and counts from zero.
        client.result("traffic.start")
        lrtest.wait_for_frames(client, tx=50)
        report = client.result("traffic.stop")
        self.assertLessEqual(report["streams"][0]["tx_packets"], 500 * report["duration_s"] + 2)
        self.assertEqual(report["streams"][0]["rx_packets"], report["streams"][0]["tx_packets"])
        client.close()

    def test_ports_stay_up_across_runs(self):
        # A device under test must not see its link drop between tests: runs end without
        # stopping the ports, and every stream mbuf still comes back.
        client = Client(self.sock_path)
        for _ in range(3):
            client.result("traffic.start")
            lrtest.wait_for_frames(client, tx=100, rx=100)
            report = client.result("traffic.stop")
            self.assertEqual(report["mbufs_not_returned"], 0)
            self.assertEqual(report["streams"][0]["lost"], 0)
            self.assertEqual(report["ports"][0]["link_events"], report["ports"][0]["link_events"][:1])
            self.assertFalse([w for w in report["warnings"] if "ports were stopped" in w])
        events = client.result("port.link.history", port="p0")["events"]
        self.assertEqual([e["up"] for e in events], [True])
        self.assertTrue(client.result("port.link", port="p0")["up"])
        self.assertTrue(client.result("port.list")[0]["link_up"])
        client.close()

    def test_a_bad_report_path_never_costs_a_report(self):
        self.assertIn("no run has ended yet", self.cli("report", "--last").stderr)
        self.assertEqual(self.cli("start").returncode, 0)
        lrtest.wait_for_frames(Client(self.sock_path), tx=100, rx=100)
        # Refused before anything stops: the run goes on.
        bad = self.cli("stop", "--report", "/nonexistent/stop.json")
        self.assertEqual(bad.returncode, 4)
        self.assertEqual(bad.stderr, "linerate: cannot write the report file '/nonexistent/stop.json': no such "
                                     "directory '/nonexistent'\n")
        self.assertEqual(self.cli("stop", "--report", self.dir).stderr,
                         "linerate: cannot write the report file '%s': '%s' is a directory\n" % (self.dir, self.dir))
        self.assertTrue(Client(self.sock_path).result("traffic.status")["running"])
        stopped = self.cli("--json", "stop")
        self.assertEqual(stopped.returncode, 0, stopped.stderr)
        # The data plane keeps the last report for whoever lost theirs.
        path = os.path.join(self.dir, "again.json")
        last = self.cli("--json", "report", "--last", "--report", path)
        self.assertEqual(last.returncode, 0, last.stderr)
        self.assertEqual(json.loads(last.stdout), json.loads(stopped.stdout))
        with open(path) as f:
            self.assertEqual(json.load(f), json.loads(stopped.stdout))

    def test_cli(self):
        ports = self.cli("ports")
        self.assertEqual(ports.returncode, 0, ports.stderr)
        self.assertRegex(ports.stdout, r"p0 +net_ring0 +net_ring +0 +up +10 +10\* +-")
        self.assertEqual(self.cli("start").stdout, "traffic started\n")
        lrtest.wait_for_frames(Client(self.sock_path), tx=1000, rx=1000)
        stats = self.cli("--json", "stats")
        self.assertEqual(stats.returncode, 0, stats.stderr)
        self.assertGreater(json.loads(stats.stdout)[0]["tx_packets"], 0)
        rate = self.cli("rate", "s1", "1Mpps")
        self.assertEqual(rate.stdout, "stream 's1' now at 1.000000 Mpps\n")
        too_fast = self.cli("rate", "s1", "20Mpps")
        self.assertEqual(too_fast.returncode, 1)
        self.assertEqual(too_fast.stderr, "linerate: stream 's1' asks 20.000 Mpps but port 'p0' at 10 Gbit/s carries "
                                          "at most 8.446 Mpps of 128-byte frames (error -32602)\n")
        report_file = os.path.join(self.dir, "cli-report.json")
        stop = self.cli("stop", "--report", report_file)
        self.assertEqual(stop.returncode, 0, stop.stderr)
        self.assertRegex(stop.stdout, r"s1 +\d+")
        with open(report_file) as f:
            report = json.load(f)
        self.assertEqual(report["schema"], "linerate.run_report/1")
        self.assertEqual(report["streams"][0]["lost"], 0)
        self.assertEqual(self.cli("stop").returncode, 1)  # not running
        gone = subprocess.run([LINERATE, "--socket", os.path.join(self.dir, "none.sock"), "ports"],
                              capture_output=True, text=True)
        self.assertEqual(gone.returncode, 3)
        self.assertIn("cannot reach the data plane at", gone.stderr)

    def test_run_uses_the_serving_data_plane(self):
        # The profile's [run] holds there too: its timeline is in the report.
        profile = self.write_profile(PROFILE.replace('rate = "20kpps"', 'rate = "50kpps"\ncount = 20000')
                                     .replace('drain = "100ms"', 'drain = "100ms"\ntimeline = "10ms"')
                                     % (self.prefix, self.sock_path), "run.toml")
        report_file = os.path.join(self.dir, "run-report.json")
        run = self.cli("run", profile, "--report", report_file)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(report_file) as f:
            s = json.load(f)["streams"][0]
        self.assertEqual((s["tx_packets"], s["rx_packets"], s["lost"]), (20000, 20000, 0))
        self.assertEqual(s["timeline"]["bin_s"], 0.01)
        self.assertEqual(sum(s["timeline"]["tx"]), 20000)
        self.assertIsNone(self.proc.poll(), "the serving data plane keeps serving")
        bad = self.cli("run", self.write_profile(PROFILE.replace('tx_port = "p0"', 'tx_port = "p7"')
                                                 % (self.prefix, self.sock_path), "bad.toml"))
        self.assertEqual(bad.returncode, 2)  # a profile error, found before the data plane is asked
        self.assertIn("bad.toml:", bad.stderr)
        self.assertIn("'p7'", bad.stderr)
        # The data plane's own check of streams against its ports, for a client that skips the CLI's.
        bad_stream = {"name": "s1", "tx_port": "p7", "rx_port": "p0", "frame_size": 128, "rate": "20kpps"}
        refused = Client(self.sock_path).call("stream.load", streams=[bad_stream], path="bad.toml")
        self.assertIn("stream 's1' uses port 'p7', which this data plane does not have (it has p0)",
                      refused["error"]["message"])

    def test_run_checks_the_profiles_ports_against_the_services(self):
        # A profile written for a 40G net_null port must not run its 10 % on the service's 10G ring.
        other = PROFILE.replace('device = "net_ring0"', 'device = "net_null0"').replace(
            'speed = "10G"', 'speed = "40G"\npromiscuous = false\npfc = [3]')
        profile = self.write_profile(other % (self.prefix, self.sock_path), "other.toml")
        refused = self.cli("run", profile)
        self.assertEqual(refused.returncode, 1)
        self.assertEqual(refused.stdout, "")
        self.assertEqual(refused.stderr,
                         "linerate: the profile's ports and switches are not set as the serving data plane's (%s):\n"
                         "  port 'p0': device net_null0 in the profile, net_ring0 in the data plane\n"
                         "  port 'p0': speed 40 Gbit/s in the profile, 10 Gbit/s in the data plane\n"
                         "  port 'p0': pfc is [3] in the profile, unset in the data plane\n"
                         "  port 'p0': promiscuous is false in the profile, true in the data plane\n"
                         "Run it on a data plane of its own (stop the service, or give another --socket), or add "
                         "--adopt-ports to run its streams on the service's ports and switches as they are.\n"
                         % self.sock_path)
        # port.list carries each port's settings in the [[port]] table's keys: what the CLI compared.
        spec = Client(self.sock_path).result("port.list")[0]["spec"]
        self.assertEqual((spec["device"], spec["speed"], spec["promiscuous"], spec["rx_queues"]),
                         ("net_ring0", "10000Mbps", True, 1))
        self.assertNotIn("pfc", spec)
        self.assertFalse(Client(self.sock_path).result("traffic.status")["running"])
        adopted = self.cli("run", profile, "--adopt-ports", "--plan-only")
        self.assertEqual(adopted.returncode, 0, adopted.stderr)
        self.assertIn("--adopt-ports: the streams run on the serving data plane's ports and switches", adopted.stderr)
        # The plan is printed in this mode too, and it is the service's: 10 Gbit/s, net_ring.
        self.assertIn("port 0 'p0' net_ring0 (driver net_ring, socket 0, checksums in software, link up 10 Gbit/s "
                      "(from profile))", adopted.stdout)
        self.assertIn("stream 's1' p0 -> p0: 128.0 B mean frame, 0.020000 Mpps, until stopped", adopted.stdout)
        self.assertFalse(Client(self.sock_path).result("traffic.status")["running"])

    def test_streams_ports_and_partial_traffic(self):
        client = Client(self.sock_path)
        added = client.result("stream.add", streams=[{"name": "s2", "tx_port": "p0", "rx_port": "p0",
                                                      "frame_size": 256, "rate": "10kpps"}])
        self.assertEqual(added, {"added": ["s2"]})
        self.assertEqual([s["name"] for s in client.result("stream.list")], ["s1", "s2"])
        dup = client.call("stream.add", streams=[{"name": "s2", "tx_port": "p0"}])
        self.assertEqual(dup["error"]["code"], -32602)
        self.assertEqual(dup["error"]["message"],
                         "params: key 'stream[0].name': a stream named 's2' exists already; stream.remove it first")
        self.assertEqual(client.call("stream.add", streams=[{"name": "x", "tx_port": "p0", "rate": 5}])
                         ["error"]["message"], "params: key 'streams[0].rate': expected a string, found an integer")
        # Only s2 runs; then only s2 stops and the run goes on.
        self.assertEqual(client.result("traffic.start", streams=["s2"])["streams"], ["s2"])
        lrtest.wait_for_frames(client, stream="s2", tx=100)
        stats = {s["name"]: s for s in client.result("stats.streams")}
        self.assertEqual(stats["s1"]["tx_packets"], 0)
        self.assertGreater(stats["s2"]["tx_packets"], 0)
        self.assertEqual(client.call("stream.add", streams=[])["error"]["code"], -32002)  # not while running
        self.assertEqual(client.result("traffic.stop", streams=["s2"])["stopped"], ["s2"])
        self.assertTrue(client.result("traffic.status")["running"])
        lcores = client.result("stats.lcores")
        self.assertEqual(sorted(l["stream"] for l in lcores[0]["tx_lanes"]), ["s1", "s2"])
        histogram = client.result("stats.histogram", stream="s2")
        self.assertEqual(sum(b["count"] for b in histogram["buckets"]), histogram["samples"])
        self.assertEqual(histogram["samples"], client.result("stats.streams")[1]["rx_packets"])
        report = client.result("traffic.stop")
        self.assertEqual(report["streams"][0]["tx_packets"], 0)
        self.assertEqual(report["streams"][1]["rx_packets"], report["streams"][1]["tx_packets"])
        self.assertEqual(client.result("stream.remove", stream="s2"), {"removed": "s2"})
        self.assertEqual([s["name"] for s in client.result("stream.list")], ["s1"])
        # Port settings: what net_ring can do, and a plain answer for what it cannot.
        self.assertFalse(client.call("port.config.set", port="p0", promiscuous=False).get("error"))
        mtu = client.call("port.config.set", port="p0", mtu=9000)
        self.assertEqual(mtu["error"]["code"], -32003)
        self.assertEqual(mtu["error"]["message"], "setting the MTU is not supported by net_ring on port 0 ('p0')")
        self.assertEqual(client.call("port.config.set", port="p0", link="down")["error"]["message"],
                         "params.link: port.config.set has no such parameter (it takes: port, promiscuous, mtu, "
                         "state, keep, pfc_reaction_delay, pfc_reaction_delay_quanta)")
        # The PFC reaction delay (the lossless plan's headroom case): only a port that obeys PFC itself has one.
        self.assertEqual(client.call("port.config.set", port="p0", pfc_reaction_delay="20us")["error"]["message"],
                         "port 'p0' does not obey PFC itself (pfc_honour = false): it has no reaction to delay")
        self.assertEqual(client.call("port.config.set", port="p0", pfc_reaction_delay="soon")["error"]["message"],
                         "params.pfc_reaction_delay: 'soon' is not a duration, e.g. \"20us\"")
        # A misspelled parameter is refused, not ignored: `stream` for `streams` would start everything.
        self.assertEqual(client.call("traffic.start", stream=["s1"])["error"]["message"],
                         "params.stream: traffic.start has no such parameter (it takes: streams, ports, at_utc_ns, lease_ms)")
        self.assertFalse(client.result("traffic.status")["running"])
        # Protocol 1's names still answer, and methods.list says what replaced them.
        self.assertEqual(client.call("port.set", port="p0", link="sideways")["error"]["message"],
                         "params.link: 'sideways' is not up or down")
        self.assertEqual(client.result("stream.set_rate", stream="s1", rate="1kpps")["target_pps"], 1000)
        listed = {m["name"]: m for m in client.result("methods.list")}
        self.assertEqual(listed["stream.set_rate"]["deprecated"], "stream.rate.set")
        self.assertEqual(listed["port.link_set"]["deprecated"], "port.link.set")
        self.assertNotIn("deprecated", listed["port.link.set"])
        for name, method in listed.items():  # the naming rule: object[.aspect].verb, lower case
            self.assertRegex(name, r"^[a-z]+(\.[a-z_]+)*$")
            if "deprecated" not in method:
                self.assertNotRegex(name, r"_(set|get)$", name)
        client.close()

    @unittest.skipUnless(shutil.which("dpdk-telemetry.py"), "needs dpdk-telemetry.py (package dpdk)")
    def test_streams_load_as_json_specs(self):
        """stream.load takes the streams as JSON objects with the profile's keys, as a plain
        socket session sends them; the TOML text of before is refused, saying what to send;
        stream.list {specs: true} gives back what stream.load takes."""
        client = Client(self.sock_path)
        methods = {m["name"]: m for m in client.result("methods.list")}
        self.assertEqual(methods["plan"]["deprecated"], "run.plan")  # the old name answers as the new
        self.assertEqual(client.result("plan"), client.result("run.plan"))
        spec = client.result("stream.list", specs=True)
        self.assertEqual(len(spec), 1)
        self.assertEqual((spec[0]["name"], spec[0]["rate"], spec[0]["frame_size"]), ("s1", "20000pps", 128))
        self.assertEqual(spec[0]["source"]["keys"]["frame_size"], [18, 14])  # the profile file's line
        j1 = {"name": "j1", "tx_port": "p0", "rx_port": "p0", "rate": "50kpps", "frame_size": 256, "count": 5000,
              "udp": {"src": 4000}}
        loaded = client.result("stream.load", streams=[j1])
        # The run settings stay the service's profile's unless the call sends its own.
        self.assertEqual(loaded, {"streams": ["j1"], "run": {"drain": "100000000ns", "live": True}})
        listed = client.result("stream.list", specs=True)[0]
        self.assertEqual((listed["count"], listed["udp"], listed["frame_size"]), (5000, {"src": 4000, "dst": 1024}, 256))
        self.assertEqual(client.result("stream.load", streams=[listed], run={"timeline": "1ms"})["run"],
                         {"drain": "500000000ns", "live": True, "timeline": "1000000ns"})  # what it lists loads
        client.result("traffic.start")
        lrtest.wait_until(lambda: client.result("traffic.status")["tx_finished"], "j1 sent its 5000 frames")
        s = client.result("traffic.stop")["streams"][0]
        self.assertEqual((s["name"], s["tx_packets"], s["rx_packets"], s["lost"], s["tx_bytes"]),
                         ("j1", 5000, 5000, 0, 5000 * 256))
        self.assertEqual((s["timeline"]["bin_s"], sum(s["timeline"]["tx"])), (0.001, 5000))
        self.assertEqual(client.call("stream.load", streams=[j1], run={"timline": "1ms"})["error"]["message"],
                         "params: key 'run.timline': unknown key: did you mean 'timeline'? (see config/README.md for "
                         "the schema)")
        bad = dict(j1, frame_sise=64)
        self.assertEqual(client.call("stream.load", streams=[bad])["error"]["message"],
                         "params: key 'streams[0].frame_sise': unknown key: did you mean 'frame_size'? (see "
                         "config/README.md for the schema)")
        self.assertEqual(client.call("stream.load", streams=[dict(j1, tx_port="p7")])["error"]["message"],
                         "params: key 'stream[0].tx_port': stream 'j1' uses port 'p7', which this data plane does "
                         "not have (it has p0)")
        self.assertEqual(client.call("stream.load")["error"]["message"],
                         "params: give streams, an array of stream objects with the [[stream]] table's keys")
        old = client.call("stream.load", profile='[[stream]]\nname = "t1"\ntx_port = "p0"\n')
        self.assertEqual(old["error"]["code"], -32602)
        self.assertEqual(old["error"]["message"],
                         "params.profile: stream.load has no such parameter (it takes: streams, run, path)")
        client.close()
        # The CLI sends a file's streams in the JSON form, with the file's lines: a check the
        # data plane makes names them.
        far = self.write_profile('[[stream]]\nname = "f1"\ntx_port = "p0"\nrx_port = "p9"\n', "far.toml")
        refused = self.cli("load", far)
        self.assertEqual(refused.returncode, 1)
        self.assertIn("far.toml:4:11: key 'stream[0].rx_port': stream 'f1' uses port 'p9', which this data plane "
                      "does not have (it has p0)", refused.stderr)
        typo = self.cli("load", self.write_profile('[[stream]]\nname = "f1"\ntx_port = "p0"\nrat = "1%"\n', "typo.toml"))
        self.assertEqual(typo.returncode, 2)
        self.assertIn("typo.toml:4:1: key 'stream[0].rat': unknown key: did you mean 'rate'?", typo.stderr)

    def test_stream_stats_in_dpdk_telemetry(self):
        client = Client(self.sock_path)
        client.result("traffic.start")
        time.sleep(1.5)  # the snapshot is published once a second
        out = subprocess.run(["dpdk-telemetry.py", "-f", self.prefix], input="/linerate/streams\n/linerate/stream,s1\n",
                             capture_output=True, text=True, timeout=30).stdout
        replies = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        self.assertIn({"/linerate/streams": ["s1"]}, replies)
        stream = next(r["/linerate/stream"] for r in replies if "/linerate/stream" in r)
        self.assertEqual(stream["name"], "s1")
        self.assertGreater(stream["tx_packets"], 0)
        self.assertLessEqual(stream["tx_packets"], client.result("stats.streams")[0]["tx_packets"])
        client.close()

    def test_link_speed_through_ethdev_is_read_back(self):
        forced = self.cli("link", "p0", "--autoneg", "off", "--speed", "50G")
        self.assertEqual(forced.returncode, 1)
        self.assertIn("link set on port 'p0': net_ring came up at 10000 Mb/s, not 50000; the previous link settings "
                      "were restored", forced.stderr)
        same = self.cli("--json", "link", "p0", "--autoneg", "off", "--speed", "10G")
        self.assertEqual(same.returncode, 0, same.stderr)
        self.assertEqual((json.loads(same.stdout)["up"], json.loads(same.stdout)["speed_mbps"]), (True, 10000))
        modes = self.cli("link", "p0", "--advertise", "10000baseT/Full")
        self.assertIn("advertising exact link modes is not supported by net_ring on port 0 ('p0') (it has no kernel "
                      "netdev to fall back on)", modes.stderr)
        # Up / down through port control is what the port list shows too (one engine view).
        client = Client(self.sock_path)
        self.assertEqual(self.cli("link", "p0", "--down").returncode, 0)
        self.assertFalse(client.result("port.list")[0]["link_up"])
        self.assertEqual(self.cli("link", "p0", "--up").returncode, 0)
        self.assertTrue(client.result("port.list")[0]["link_up"])
        client.close()
        # The port reconfigured twice still carries a run exactly.
        client = Client(self.sock_path)
        client.result("traffic.start")
        lrtest.wait_for_frames(client, tx=1000, rx=1000)
        report = client.result("traffic.stop")
        stream = report["streams"][0]
        self.assertGreater(stream["tx_packets"], 0)
        self.assertEqual((stream["rx_packets"], stream["lost"]), (stream["tx_packets"], 0))
        client.close()

    def test_stats_shows_the_mac_control_frames_received(self):
        """PFC frames the port hears (its own, looped) are counted per priority while the run
        goes on, and `linerate stats` says so under the stream table."""
        xoff = self.write_profile('[[stream]]\nname = "xoff3"\ntx_port = "p0"\nrx_port = "p0"\nkind = "pfc"\n'
                                  'priorities = [3]\nrate = "1kpps"\ncount = 50\n', "xoff.toml")
        self.assertEqual(self.cli("stream-add", xoff).stdout, "streams: xoff3\n")
        self.assertEqual(self.cli("start", "--stream", "xoff3").returncode, 0)
        client = Client(self.sock_path)
        lrtest.wait_until(lambda: client.result("stats.ports")[0].get("mac_control", {}).get("pfc_frames") == 50,
                          "50 PFC frames counted")
        ports = client.result("stats.ports")
        self.assertEqual(ports[0]["mac_control"]["pfc"], [{"priority": 3, "xoff": 50, "xon": 0, "quanta": 50 * 65535,
                                                           "pause_ns": ports[0]["mac_control"]["pfc"][0]["pause_ns"]}])
        self.assertAlmostEqual(ports[0]["mac_control"]["pfc"][0]["pause_ns"], 50 * 65535 * 51.2, delta=1)
        client.close()
        stats = self.cli("stats")
        self.assertEqual(stats.returncode, 0, stats.stderr)
        self.assertIn("\nport p0: MAC Control frames received: 50 PFC, 0 PAUSE; first at ", stats.stdout)
        self.assertIn("\n    priority 3: 50 XOFF, 0 XON, 3276750 quanta = 167.770 ms of pause asked\n", stats.stdout)

    def test_cli_stream_and_port_subcommands(self):
        extra = self.write_profile('[[stream]]\nname = "s2"\ntx_port = "p0"\nrx_port = "p0"\nrate = "10kpps"\n', "s2.toml")
        self.assertEqual(self.cli("stream-add", extra).stdout, "streams: s2\n")
        again = self.cli("stream-add", extra)
        self.assertEqual(again.returncode, 1)
        self.assertIn("s2.toml:1:1: key 'stream[0].name': a stream named 's2' exists already", again.stderr)
        self.assertEqual(self.cli("start", "--stream", "s2").returncode, 0)
        lrtest.wait_for_frames(Client(self.sock_path), stream="s2", tx=100)
        lcores = self.cli("lcores").stdout
        self.assertRegex(lcores, r"tx s2#0 port 0 q0 \([1-9]\d* frames\)")
        self.assertRegex(lcores, r"tx s1#0 port 0 q0 \(0 frames\)")
        self.assertEqual(self.cli("stop", "--stream", "s2").stdout, "stopped: s2\n")
        histogram = self.cli("histogram", "s2")
        self.assertRegex(histogram.stdout, r"^stream 's2': \d+ samples; min \d+ ns, .* max \d+ ns, jitter [0-9.]+ ns\n"
                                           r" +latency +frames +share\n +\d+-\d+ ns +\d+ +[0-9.]+% #*")
        self.assertLess(len(histogram.stdout.split("\n")), 20, "a summary, not hundreds of 1 ns rows")
        every = self.cli("histogram", "s2", "--buckets")
        self.assertRegex(every.stdout, r"from_ns +to_ns +frames\n +\d+ +\d+ +\d+")
        self.assertEqual(self.cli("port-set", "p0", "--mtu", "9000").returncode, 1)  # traffic still runs
        self.assertEqual(self.cli("stop").returncode, 0)
        self.assertEqual(self.cli("stream-remove", "s2").stdout, "stream 's2' removed\n")
        whole = self.write_profile(PROFILE.replace('name = "s1"', 'name = "s9"') % (self.prefix, self.sock_path), "w.toml")
        self.assertEqual(self.cli("load", whole).stdout, "streams: s9\n")
        promisc = self.cli("port-set", "p0", "--promiscuous", "off")
        self.assertEqual(promisc.returncode, 0, promisc.stderr)
        self.assertEqual(self.cli("port-set", "p0", "--state", "stopped").returncode, 0)
        self.assertEqual(self.cli("port-set", "p0", "--state", "started").returncode, 0)
        self.assertEqual(self.cli("start").returncode, 0)  # a stopped port is started by the run anyway
        self.assertEqual(self.cli("port-set", "p0", "--state", "stopped").stderr,
                         "linerate: traffic is running: stop it before starting or stopping a port (error -32002)\n")
        self.assertEqual(self.cli("stop").returncode, 0)
        mtu = self.cli("port-set", "p0", "--mtu", "9000")
        self.assertEqual(mtu.stderr, "linerate: setting the MTU is not supported by net_ring on port 0 ('p0') (error -32003)\n")

    def test_record_writes_a_time_series(self):
        Client(self.sock_path).result("traffic.start")
        path = os.path.join(self.dir, "series.jsonl")
        rec = subprocess.Popen([LINERATE, "--socket", self.sock_path, "record", path, "--interval", "200ms"],
                               stderr=subprocess.PIPE, text=True)
        def samples():
            with open(path) if os.path.exists(path) else open(os.devnull) as f:
                return sum(1 for line in f if line.endswith("\n")) >= 4
        lrtest.wait_until(samples, "four samples in %s" % path)
        rec.send_signal(signal.SIGINT)
        _, err = rec.communicate(timeout=20)
        self.assertEqual(rec.returncode, 0, err)
        with open(path) as f:
            lines = [json.loads(line) for line in f]
        self.assertGreaterEqual(len(lines), 4)
        self.assertIn("recorded %d samples" % len(lines), err)
        tx = [line["streams"][0]["tx_packets"] for line in lines]
        self.assertEqual(tx, sorted(tx))  # a counter never goes back within a run
        self.assertTrue(all(line["ports"][0]["name"] == "p0" and "counters" in line for line in lines))
        self.assertGreater(lines[-1]["t"], lines[0]["t"])
        bad = self.cli("record", path, "--interval", "soon")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--interval 'soon' is not a duration", bad.stderr)

    @unittest.skipUnless(shutil.which("tmux"), "needs tmux")
    def test_top_shows_live_view_and_restores_the_terminal(self):
        Client(self.sock_path).result("traffic.start")
        session = "lr-top-%d" % os.getpid()
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "30"], check=True)
        self.addCleanup(subprocess.run, ["tmux", "kill-session", "-t", session], capture_output=True)
        subprocess.run(["tmux", "send-keys", "-t", session, "%s --socket %s top; echo TOP-EXIT=$?" %
                        (LINERATE, self.sock_path), "Enter"], check=True)
        screen = ""
        for _ in range(50):
            time.sleep(0.1)
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout
            if "s1 " in screen and "traffic running" in screen:
                break
        self.assertIn("linerate top", screen)
        self.assertRegex(screen, r"p0 +0\.0[0-9]{2} ")  # 20 kpps = 0.020 Mpps
        # The stream's rate is over the same last second as its port's, not a run average.
        self.assertRegex(screen, r"s1 +[0-9]+ +0\.0[12][0-9]{2} +0\.0200 ")
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        for _ in range(50):
            time.sleep(0.1)
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout
            if "TOP-EXIT=" in screen:
                break
        self.assertIn("TOP-EXIT=0", screen)
        self.assertNotIn("linerate top", screen, "the alternate screen is gone")

    def test_stats_watch_piped_has_no_control_codes_and_shows_interval_rates(self):
        Client(self.sock_path).result("traffic.start")
        watch = subprocess.Popen([LINERATE, "--socket", self.sock_path, "stats", "--watch"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        first = watch.stdout.readline()
        table = [watch.stdout.readline() for _ in range(2)]
        watch.send_signal(signal.SIGINT)
        rest, _ = watch.communicate(timeout=10)
        self.assertEqual(watch.returncode, 0)
        self.assertRegex(first, r"^\d\d:\d\d:\d\d  tx_Mpps over the last 1\.\d s; counts since the run started\n$")
        self.assertTrue(table[0].startswith("stream "))
        self.assertRegex(table[1], r"^s1 +\d+ +0\.0[12]\d\d +0\.0200 ")
        self.assertNotIn("\033", first + "".join(table) + rest)

    def test_prometheus_exporter(self):
        client = Client(self.sock_path)
        client.result("traffic.start")
        lrtest.wait_for_frames(client, tx=100, rx=100)
        exporter = subprocess.Popen([LINERATE, "--socket", self.sock_path, "exporter", "--listen", "127.0.0.1:0"],
                                    stdout=subprocess.PIPE, text=True)
        self.addCleanup(exporter.kill)
        port = int(exporter.stdout.readline().split()[2].split(":")[1])
        import urllib.request
        page = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=20).read().decode()
        self.assertIn("lr_up 1\n", page)
        self.assertRegex(page, r'lr_stream_tx_packets_total\{stream="s1",port="p0"\} [1-9]')
        self.assertIn('lr_port_queue_rx_packets_total{port="p0",queue="0",source="xstats"}', page)
        self.assertRegex(page, r'lr_nic_tx_packets_total\{port="p0",source="ethdev",name="opackets"\} [1-9]')
        if shutil.which("promtool"):
            check = subprocess.run(["promtool", "check", "metrics"], input=page, capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
        report = client.result("traffic.stop")
        after = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=20).read().decode()
        self.assertIn('lr_stream_rx_packets_total{stream="s1",port="p0"} %d\n' % report["streams"][0]["rx_packets"],
                      after)
        with self.assertRaises(urllib.error.HTTPError):
            urllib.request.urlopen("http://127.0.0.1:%d/other" % port, timeout=20)
        client.close()
        self.stop_service()
        self.assertIn("lr_up 0\n", urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=20).read().decode())

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("setpriv"), "needs root and setpriv")
    def test_other_users_are_refused(self):
        # The socket's mode stops another user first; the CLI says who may connect and how to let others.
        as_nobody = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", LINERATE,
                                    "--socket", self.sock_path, "ports"], capture_output=True, text=True, timeout=30)
        self.assertEqual(as_nobody.returncode, 3, as_nobody.stderr)
        self.assertIn("the data plane at %s refused this user: Permission denied (root and the data plane's own user "
                      "may connect; to let others, set [control] group = \"GROUP\" in its profile" % self.sock_path,
                      as_nobody.stderr)
        os.chmod(self.sock_path, 0o666)  # past the file mode: the peer-credential check decides
        os.chmod(self.dir, 0o755)
        # The refusal comes at once, before any request.
        probe = ("import socket,sys; s=socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1]); "
                 "print(s.makefile().readline())")
        out = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c",
                              probe, self.sock_path], capture_output=True, text=True, timeout=30)
        self.assertIn("permission denied: uid 65534 is not root, the data plane's user", out.stdout, out.stderr)

    def test_stopping_the_service_reports_the_running_run(self):
        client = Client(self.sock_path)
        client.result("traffic.start")
        lrtest.wait_for_frames(client, tx=100, rx=100)
        client.close()
        self.assertEqual(self.stop_service(signal.SIGTERM), 0, self.err)
        self.assertIn("(interrupted", self.out)
        with open(self.report) as f:
            report = json.load(f)
        self.assertTrue(report["interrupted"])
        s = report["streams"][0]
        self.assertGreater(s["tx_packets"], 0)
        self.assertEqual(s["rx_packets"], s["tx_packets"])
        self.assertFalse(os.path.exists(self.sock_path), "the socket is removed")


    def test_exporter_caps_its_connections_and_closes_idle_ones(self):
        exporter = subprocess.Popen([LINERATE, "--socket", self.sock_path, "exporter", "--listen", "127.0.0.1:0",
                                     "--max-connections", "2", "--idle-timeout", "2"], stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: exporter.poll() is not None or (exporter.terminate(), exporter.wait(30)))
        address = ("127.0.0.1", int(exporter.stdout.readline().split()[2].split(":")[1]))
        opened = time.monotonic()
        idle = [socket.create_connection(address, timeout=10) for _ in range(2)]
        third = socket.create_connection(address, timeout=10)
        self.assertEqual(lrtest.http_reply(third, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), (
            "HTTP/1.1 503 Service Unavailable",
            {"Retry-After": "5", "Content-Type": "text/plain", "Connection": "close", "Content-Length": "76"},
            b"linerate exporter: linerate holds at most 2 connections at once; 2 are open\n"))
        third.close()
        # The two say nothing: each is closed at the idle timeout, and the exporter serves again.
        for s in idle:
            lrtest.seconds_to_close(s)
            s.close()
        waited = time.monotonic() - opened
        self.assertTrue(1.9 < waited < 4, waited)
        page = urllib.request.urlopen("http://%s:%d/metrics" % address, timeout=20).read().decode()
        self.assertIn("lr_up 1\n", page)


if __name__ == "__main__":
    lrtest.main()
