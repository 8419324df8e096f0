"""linerate otg serve: the Open Traffic Generator API over HTTP, driven as snappi drives it
(plain http.client / urllib, JSON bodies with every choice written out and 64-bit numbers as
strings): a flow of 10,000 frames on net_ring loopback configured, started, polled until its
transmit is "stopped", and its metrics exact; refusals name the config's JSON path."""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
import urllib.error
import urllib.request

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

PROFILE = lrtest.RING_SERVICE


def flow(name, packets=10000, pps="100000"):
    return {"name": name, "tx_rx": {"choice": "port", "port": {"tx_name": "tx", "rx_names": ["tx"]}},
            "packet": [{"choice": "ethernet", "ethernet": {"src": {"choice": "value", "value": "00:11:22:33:44:55"},
                                                           "dst": {"choice": "value", "value": "00:11:22:33:44:66"},
                                                           "pfc_queue": {"choice": "auto"}}},
                       {"choice": "vlan", "vlan": {"id": {"choice": "value", "value": 100},
                                                   "priority": {"choice": "value", "value": 3}}},
                       {"choice": "ipv4", "ipv4": {"src": {"choice": "value", "value": "10.0.0.1"},
                                                   "dst": {"choice": "value", "value": "10.0.0.2"},
                                                   "priority": {"choice": "dscp", "dscp": {
                                                       "phb": {"choice": "value", "value": 46},
                                                       "ecn": {"choice": "value", "value": 0}}}}},
                       {"choice": "udp", "udp": {"src_port": {"choice": "increment",
                                                              "increment": {"start": 5000, "step": 1, "count": 100}},
                                                 "dst_port": {"choice": "value", "value": 7000}}}],
            "size": {"choice": "fixed", "fixed": 128}, "rate": {"choice": "pps", "pps": pps},
            "duration": {"choice": "fixed_packets", "fixed_packets": {"packets": str(packets), "gap": 12}},
            "metrics": {"enable": True, "loss": False, "timestamps": False}}


class Otg(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        sock = os.path.join(self.dir, "dp.sock")
        prefix = "lr-e2e-otg-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        self.profile = self.write_profile(PROFILE % (prefix, sock))
        self.dataplane, _ = self.serve(self.profile, sock)
        self.sock = sock
        self.start_server()

    def stop_dataplane(self):
        self.dataplane.send_signal(signal.SIGTERM)
        self.dataplane.communicate(timeout=30)

    def restart_dataplane(self):
        self.dataplane, _ = self.serve(self.profile, self.sock)

    def start_server(self, *transport):
        """`linerate otg serve` on a free port: HTTPS with a self-signed certificate by default,
        as snappi's default location (https, verify=False) expects."""
        self.otg = subprocess.Popen([LINERATE, "--socket", self.sock, "otg", "serve", "--listen", "127.0.0.1:0",
                                     *transport], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        server = self.otg
        self.addCleanup(lambda: server.poll() is not None or (server.terminate(), server.wait(30)))
        self.listening = server.stdout.readline()
        self.base = re.search(r"listening on (\S+:\d+)", self.listening).group(1)
        self.tls = ssl.create_default_context()
        self.tls.check_hostname = False
        self.tls.verify_mode = ssl.CERT_NONE  # snappi's verify=False

    def raw_call(self, path, body):
        request = urllib.request.Request(self.base + path, method="POST", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30, context=self.tls) as reply:
            return reply.headers["Content-Type"], reply.read()

    def call(self, method, path, body=None):
        request = urllib.request.Request(self.base + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30, context=self.tls) as reply:
                self.assertEqual(reply.headers["Content-Type"], "application/json")
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as e:
            self.assertEqual(e.headers["Content-Type"], "application/json")
            return e.code, json.loads(e.read())

    def call_text(self, path, text):
        """POST a body as given (JSON Python cannot write, such as 100,000 levels deep)."""
        request = urllib.request.Request(self.base + path, method="POST", data=text.encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30, context=self.tls) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def transmit(self, state, names=()):
        return self.call("POST", "/control/state", {"choice": "traffic", "traffic": {
            "choice": "flow_transmit", "flow_transmit": {"state": state, "flow_names": list(names)}}})

    def run_exactly(self, name, port="tx"):
        """A 10,000-frame flow configured, started and counted exactly: the server still serves."""
        f = flow(name)
        f["tx_rx"]["port"] = {"tx_name": port, "rx_names": [port]}
        self.assertEqual(self.call("POST", "/config", {"ports": [{"name": port, "location": "p0"}], "flows": [f]}),
                         (200, {"warnings": []}))
        self.assertEqual(self.transmit("start"), (200, {"warnings": []}))
        lrtest.wait_until(lambda: self.flow_metrics(name)[0]["transmit"] == "stopped", "the flow sent its frames")
        m = self.flow_metrics(name)[0]
        self.assertEqual((m["frames_tx"], m["frames_rx"], m["loss"]), (10000, 10000, 0.0))

    def flow_metrics(self, *names):
        status, body = self.call("POST", "/monitor/metrics", {"choice": "flow", "flow": {"flow_names": list(names)}})
        self.assertEqual((status, body["choice"]), (200, "flow_metrics"))
        return body["flow_metrics"]

    def test_a_flow_configured_started_and_measured(self):
        self.assertEqual(self.call("GET", "/capabilities/version"),
                         (200, {"api_spec_version": "1.60.0", "sdk_version": "", "app_version": "0.1.0"}))
        config = {"ports": [{"name": "tx", "location": "p0"}], "flows": [flow("f1")]}
        config["flows"][0]["metrics"]["timestamps"] = True
        self.assertEqual(self.call("POST", "/config", config), (200, {"warnings": []}))
        self.assertEqual(self.call("GET", "/config"), (200, config))
        start = {"choice": "traffic", "traffic": {"choice": "flow_transmit", "flow_transmit": {"state": "start"}}}
        self.assertEqual(self.call("POST", "/control/state", start), (200, {"warnings": []}))
        # Three clients poll while traffic runs; each is answered.
        answers = []

        def poll():
            for _ in range(5):
                answers.append(self.call("POST", "/monitor/metrics", {"choice": "port", "port": {}})[0])
        pollers = [threading.Thread(target=poll) for _ in range(3)]
        for t in pollers:
            t.start()
        for t in pollers:
            t.join(60)
        self.assertEqual(answers, [200] * 15)
        lrtest.wait_until(lambda: self.flow_metrics("f1")[0]["transmit"] == "stopped", "the flow sent its frames")
        m = self.flow_metrics("f1")[0]
        self.assertEqual((m["name"], m["port_tx"], m["port_rx"], m["frames_tx"], m["frames_rx"], m["bytes_tx"],
                          m["bytes_rx"], m["loss"]), ("f1", "tx", "tx", 10000, 10000, 1280000, 1280000, 0.0))
        self.assertGreater(m["latency"]["maximum_ns"], 0)
        self.assertLessEqual(m["latency"]["minimum_ns"], m["latency"]["average_ns"])
        # The first and last frame received: at least 9,999 intervals of 10 us apart (the pacing),
        # and within the 10 ms bins in which the flow's own TX counted its first and last frame
        # (its timeline, counted apart on the TX side), a host holding the tester up or not.
        first, last = m["timestamps"]["first_timestamp_ns"], m["timestamps"]["last_timestamp_ns"]
        self.assertGreater(first, 0)
        self.assertGreater(last - first, 0.09e9)
        status, extras = self.call("GET", "/linerate/flows")
        timeline = extras["flows"][0]["timeline"]
        sent = [i for i, n in enumerate(timeline["tx"]) if n]
        bin_ns = timeline["bin_s"] * 1e9
        self.assertTrue(sent[0] * bin_ns <= first < (sent[0] + 1) * bin_ns + 1e6, (first, sent, bin_ns))
        self.assertTrue(sent[-1] * bin_ns <= last < (sent[-1] + 1) * bin_ns + 1e6, (last, sent, bin_ns))
        # linerate's own results beside OTG's, in the run report's names.
        self.assertEqual([(f["name"], f["rx_packets"], f["lost"], f["duplicate"], f["out_of_order"])
                          for f in extras["flows"]], [("f1", 10000, 0, 0, 0)])
        self.assertIn("p99", extras["flows"][0]["latency_ns"])
        self.assertEqual([p["name"] for p in self.call("GET", "/linerate/ports")[1]["ports"]], ["p0"])
        # No devices: no neighbours (a data plane without emulated hosts says so).
        client = lrtest.Client(self.sock)
        listed = client.call("neighbors.list")
        client.close()
        states = {"choice": "ipv4_neighbors", "ipv4_neighbors": []}
        if "error" in listed:
            states["warnings"] = ["this data plane emulates no hosts (%s): it has no neighbours to report" %
                                  listed["error"]["message"]]
        self.assertEqual(self.call("POST", "/monitor/states", {"choice": "ipv4_neighbors"}), (200, states))
        status, ports = self.call("POST", "/monitor/metrics", {"choice": "port", "port": {"port_names": ["tx"]}})
        self.assertEqual([(p["name"], p["location"], p["link"], p["frames_tx"], p["frames_rx"])
                          for p in ports["port_metrics"]], [("tx", "p0", "up", 10000, 10000)])
        # The frames are what the flow asked: the stream it became, as the data plane lists it.
        client = lrtest.Client(os.path.join(self.dir, "dp.sock"))
        spec = client.result("stream.list", specs=True)[0]
        client.close()
        self.assertEqual((spec["vlan"], spec["ipv4"]["dscp"], spec["udp"], spec["vary"]),
                         ({"id": 100, "pcp": 3}, 46, {"src": 5000, "dst": 7000},
                          [{"field": "udp.src", "op": "increment", "count": 100, "step": 1}]))

    def test_a_flow_paused_and_resumed_sends_nothing_while_paused_and_all_in_the_end(self):
        f = flow("f1", packets=30000, pps="20000")
        f["packet"][3]["udp"]["dst_port"] = {"choice": "values", "values": [7000, "7001", 7002]}
        f["size"] = {"choice": "weight_pairs", "weight_pairs": {"choice": "predefined", "predefined": "imix"}}
        qbb = {"pfc_delay": 0, **{"pfc_class_%d" % c: c for c in range(8)}}
        config = {"ports": [{"name": "tx", "location": "p0"}], "flows": [f],
                  "layer1": [{"name": "l1", "port_names": ["tx"], "speed": "speed_10_gbps", "mtu": 1500,
                              "flow_control": {"choice": "ieee_802_1qbb", "ieee_802_1qbb": qbb}}]}
        status, body = self.call("POST", "/config", config)
        self.assertEqual(status, 200)
        self.assertEqual(len(body["warnings"]), 2)
        self.assertTrue(body["warnings"][0].startswith("flows[0].size.weight_pairs: linerate sends the mix"))
        self.assertRegex(body["warnings"][1], r"^layer1\[0\]\.flow_control: PFC could not be set on p0: .+; its streams "
                                              r"do not pause on PFC frames \(give the port pfc_honour")
        def transmit(state):
            return self.call("POST", "/control/state", {"choice": "traffic", "traffic": {
                "choice": "flow_transmit", "flow_transmit": {"state": state, "flow_names": ["f1"]}}})
        self.assertEqual(transmit("resume"), (409, {"code": 409, "kind": "validation", "errors": [
            "traffic.flow_transmit: no traffic is running to resume"]}))
        self.assertEqual(transmit("start"), (200, {"warnings": []}))
        # Port rates over the interval between two requests (at least 100 ms apart): the flow's 20 kpps.
        port = lambda: self.call("POST", "/monitor/metrics", {"choice": "port", "port": {}})[1]["port_metrics"][0]
        port(), self.flow_metrics("f1")
        time.sleep(0.25)
        rates, flow_rates = port(), self.flow_metrics("f1")[0]
        for r in (rates, flow_rates):
            self.assertTrue(15000 < r["frames_tx_rate"] < 25000, r)
            self.assertTrue(15000 < r["frames_rx_rate"] < 25000, r)
        self.assertEqual(transmit("pause"), (200, {"warnings": []}))
        time.sleep(0.1)  # the lanes see the hold within a loop; the counters settle
        held = self.flow_metrics("f1")[0]
        self.assertEqual(held["transmit"], "paused")
        self.assertGreater(held["frames_tx"], 0)
        self.assertLess(held["frames_tx"], 30000)
        time.sleep(0.5)
        self.assertEqual(self.flow_metrics("f1")[0]["frames_tx"], held["frames_tx"])  # nothing sent while paused
        self.assertEqual(transmit("resume"), (200, {"warnings": []}))
        lrtest.wait_until(lambda: self.flow_metrics("f1")[0]["transmit"] == "stopped", "the flow sent the rest")
        m = self.flow_metrics("f1")[0]
        self.assertEqual((m["frames_tx"], m["frames_rx"], m["loss"]), (30000, 30000, 0.0))
        client = lrtest.Client(os.path.join(self.dir, "dp.sock"))
        spec = client.result("stream.list", specs=True)[0]
        client.close()
        self.assertEqual((spec["frame_size"], spec["frame_weights"], spec["vary"][1]),
                         ([64, 570, 1518], [700, 400, 100], {"field": "udp.dst", "values": [7000, 7001, 7002]}))

    def test_a_pfc_pause_flow_dissects_as_pfc_in_a_capture(self):
        pause = {"name": "xoff", "tx_rx": {"choice": "port", "port": {"tx_name": "tx", "rx_names": ["tx"]}},
                 "packet": [{"choice": "pfcpause", "pfcpause": {
                     "class_enable_vector": {"choice": "value", "value": 8},
                     "pause_class_3": {"choice": "value", "value": "65535"}}}],
                 "size": {"choice": "fixed", "fixed": 64}, "rate": {"choice": "pps", "pps": "1000"},
                 "duration": {"choice": "fixed_packets", "fixed_packets": {"packets": "20"}}}
        self.assertEqual(self.call("POST", "/config", {"ports": [{"name": "tx", "location": "p0"}], "flows": [pause]}),
                         (200, {"warnings": []}))
        path = os.path.join(self.dir, "pfc.pcapng")
        capture = subprocess.Popen([LINERATE, "--socket", os.path.join(self.dir, "dp.sock"), "capture", "p0", "-w", path,
                                    "--filter", "ether proto 0x8808", "--count", "20"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: capture.poll() is not None or capture.kill())
        time.sleep(1)  # the capture is set up before the traffic starts
        self.call("POST", "/control/state", {"choice": "traffic", "traffic": {
            "choice": "flow_transmit", "flow_transmit": {"state": "start"}}})
        lrtest.wait_until(lambda: self.flow_metrics("xoff")[0]["transmit"] == "stopped", "the pause flow sent")
        self.assertEqual((self.flow_metrics("xoff")[0]["frames_tx"], self.flow_metrics("xoff")[0]["frames_rx"]), (20, 20))
        capture.communicate(timeout=30)
        out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "macc.opcode", "-e", "macc.cbfc.enbv",
                              "-e", "macc.cbfc.pause_time.c3"], capture_output=True, text=True, check=True).stdout
        self.assertEqual(out.splitlines(), ["0x0101\t0x0008\t65535"] * 20)

    def test_a_port_capture_started_through_otg_comes_back_as_its_file(self):
        tcp = flow("f1", packets=1000)
        tcp["packet"][3] = {"choice": "tcp", "tcp": {
            "src_port": {"choice": "values", "values": [40000, 40001]}, "dst_port": {"choice": "value", "value": 443},
            "seq_num": {"choice": "value", "value": "123456789"}, "ctl_psh": {"choice": "value", "value": 1},
            "ctl_ack": {"choice": "value", "value": 1}, "window": {"choice": "value", "value": 4096}}}
        # Filters: VLAN 100, IPv4 to 10.0.0.0/24, and (custom, right after the IPv4 header) the
        # TCP source port's lowest bit set: the flow's frames from port 40001 only.
        filters = [{"choice": "ethernet", "ethernet": {}},
                   {"choice": "vlan", "vlan": {"id": {"value": "064", "mask": "000", "negate": False}}},
                   {"choice": "ipv4", "ipv4": {"dst": {"value": "0a000000", "mask": "000000ff", "negate": False}}},
                   {"choice": "custom", "custom": {"offset": 15, "bit_length": 1, "value": "1", "mask": "0"}}]
        config = {"ports": [{"name": "tx", "location": "p0"}], "flows": [tcp],
                  "captures": [{"name": "c", "port_names": ["tx"], "format": "pcap", "filters": filters}]}
        self.assertEqual(self.call("POST", "/config", config), (200, {"warnings": [
            "captures[0].format: linerate writes pcapng (Wireshark, tshark and scapy read it), both directions"]}))
        capture = {"choice": "port", "port": {"choice": "capture", "capture": {"port_names": ["tx"], "state": "start"}}}
        self.assertEqual(self.call("POST", "/control/state", capture), (200, {"warnings": []}))
        port_state = lambda: self.call("POST", "/monitor/metrics", {"choice": "port", "port": {}})[1]["port_metrics"][0]
        self.assertEqual(port_state()["capture"], "started")
        self.call("POST", "/control/state", {"choice": "traffic", "traffic": {
            "choice": "flow_transmit", "flow_transmit": {"state": "start"}}})
        lrtest.wait_until(lambda: self.flow_metrics("f1")[0]["transmit"] == "stopped", "the flow sent")
        kind, data = self.raw_call("/monitor/capture", {"port_name": "tx"})
        self.assertEqual(kind, "application/octet-stream")
        self.assertEqual(port_state()["capture"], "stopped")  # fetching the file ended it
        self.assertEqual(data[:4], bytes([0x0A, 0x0D, 0x0D, 0x0A]))  # a pcapng section header
        path = os.path.join(self.dir, "otg.pcapng")
        with open(path, "wb") as f:
            f.write(data)
        out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "frame.packet_flags_direction"],
                             capture_output=True, text=True, check=True).stdout.split()
        self.assertEqual((len(out), sum(int(d, 0) == 2 for d in out)), (1000, 500))  # port 40001's, sent and received
        # TCP segments as Wireshark reads them, the checksum verified.
        out = subprocess.run(["tshark", "-r", path, "-o", "tcp.check_checksum:TRUE", "-Y", "frame.packet_flags_direction == 2",
                              "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.seq_raw", "-e",
                              "tcp.flags", "-e", "tcp.window_size_value", "-e", "tcp.checksum.status"],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        self.assertEqual(out, ["40001\t443\t123456789\t0x0018\t4096\t1"] * 500)  # 1: good
        # port.link: down, then up, as the port metrics read it.
        for state in ("down", "up"):
            self.assertEqual(self.call("POST", "/control/state", {"choice": "port", "port": {
                "choice": "link", "link": {"port_names": ["tx"], "state": state}}}), (200, {"warnings": []}))
            status, ports = self.call("POST", "/monitor/metrics", {"choice": "port", "port": {}})
            self.assertEqual(ports["port_metrics"][0]["link"], state)
        status, body = self.call("POST", "/monitor/capture", {"port_name": "nope"})
        self.assertEqual((status, body["errors"]), (400, ["port_name: 'nope' has no capture (start one first)"]))

    def test_bad_requests_are_refused_by_class_and_the_server_serves_on(self):
        # 100,000 deep (200 KB): ended the server in SIGSEGV; refused before a tree is built.
        self.assertEqual(self.call_text("/config", "[" * 100000 + "]" * 100000), (400, {
            "code": 400, "kind": "validation",
            "errors": ["the body is JSON nested deeper than 64 levels at byte 65 (linerate reads at most 64)"]}))
        # A 64 KiB name: was forwarded in one line the data plane refused, closing the session.
        huge = "t" * 65536
        bad = flow("f1")
        bad["tx_rx"]["port"] = {"tx_name": huge, "rx_names": [huge]}
        self.assertEqual(self.call("POST", "/config", {"ports": [{"name": huge, "location": "p0"}], "flows": [bad]}),
                         (400, {"code": 400, "kind": "validation", "errors": [
                             "flows[0].tx_rx.port.rx_names[0]: 65536 characters, at most 256",
                             "flows[0].tx_rx.port.tx_name: 65536 characters, at most 256",
                             "ports[0].name: 65536 characters, at most 256"]}))
        # A body over 64 MiB: 413 from its header, before it is read.
        tls = http.client.HTTPSConnection(self.base.split("//")[1], timeout=30, context=self.tls)
        tls.putrequest("POST", "/config")
        tls.putheader("Content-Length", str(80 << 20))
        tls.endheaders()
        reply = tls.getresponse()
        self.assertEqual((reply.status, json.loads(reply.read())), (413, {
            "code": 413, "kind": "validation",
            "errors": ["the body of 83886080 bytes exceeds linerate's limit of 67108864 bytes"]}))
        tls.close()
        # A header over 8 KiB: 431.
        tls = http.client.HTTPSConnection(self.base.split("//")[1], timeout=30, context=self.tls)
        tls.request("GET", "/config", headers={"X-Long": "x" * 9000})
        reply = tls.getresponse()
        self.assertEqual((reply.status, json.loads(reply.read())), (431, {
            "code": 431, "kind": "validation",
            "errors": ["the request's header exceeds linerate's limit of 8192 bytes"]}))
        tls.close()
        # A flow the config does not have: the client's mistake (400), not linerate's (500).
        self.assertEqual(self.call("POST", "/config", {"ports": [{"name": "tx", "location": "p0"}],
                                                       "flows": [flow("f1")]}), (200, {"warnings": []}))
        self.assertEqual(self.transmit("start", ["x"]), (400, {"code": 400, "kind": "validation", "errors": [
            "traffic.flow_transmit.flow_names[0]: 'x' is not one of the config's flows"]}))
        # 200 flows: a pool each would not fit in the data plane's memory, so they share the port's
        # ([run] tx_buffers = "auto"), and the config is taken.
        many = {"ports": [{"name": "tx", "location": "p0"}],
                "flows": [flow("f%d" % i, packets=50, pps="10000") for i in range(200)]}
        self.assertEqual(self.call("POST", "/config", many), (200, {"warnings": []}))
        # A data plane whose profile asks a pool per stream runs out of memory with them: the
        # host's limit (507), saying what ran out.
        self.stop_dataplane()
        self.profile = self.write_profile(open(self.profile).read().replace("[run]\n", '[run]\ntx_buffers = "per_stream"\n'))
        self.restart_dataplane()
        # The server learns of the new data plane at its next try (503 until then).
        status, body = lrtest.wait_until(lambda: (lambda answer: answer if answer[0] != 503 else None)(
            self.call("POST", "/config", many)), "the server to reach the restarted data plane")
        self.assertEqual((status, body["kind"]), (507, "internal"), body)
        # ... and the most it holds: the streams whose pools fit before the one that did not.
        ran_out = re.match(r"^the host ran out: stream 'f(\d+)' \(stream (\d+) of 200\): TX mempool of \d+ mbufs "
                           r"\([\d.]+ MiB\) on (?:any socket|socket \d+): Cannot allocate memory; the (\d+) streams "
                           r"before it hold [\d.]+ MiB of pools and [\d.]+ MiB of hugepage memory is free \(the largest "
                           r"piece [\d.]+ MiB\), so this host holds at most (\d+) streams of this profile",
                           body["errors"][0])
        self.assertIsNotNone(ran_out, body["errors"][0])
        first_refused, position, held, most = map(int, ran_out.groups())
        self.assertEqual((position, held, most), (first_refused + 1, first_refused, first_refused))
        self.assertGreater(held, 0)
        # Still serving: a flow named at the 256-character limit runs exactly.
        self.run_exactly("n" * 256, port="p" * 256)
        self.assertIsNone(self.otg.poll())

    def test_the_data_plane_going_away_is_503_and_served_again_after_a_restart(self):
        self.run_exactly("f1")
        self.stop_dataplane()
        status, body = self.call("POST", "/monitor/metrics", {"choice": "port", "port": {}})
        self.assertEqual((status, body["kind"]), (503, "internal"))
        self.assertRegex(body["errors"][0], r"(hung up|Broken pipe|cannot reach).*; linerate retries with backoff "
                                            r"\(POST /config again once it serves\)$")
        self.assertIsNone(self.otg.poll())
        self.restart_dataplane()
        # The new session has none of the old one's config: posted again, it runs.
        self.assertEqual(self.call("GET", "/config"), (200, {}))
        self.run_exactly("f2")

    def test_tls_with_a_given_certificate_plain_http_and_bad_files(self):
        self.assertRegex(self.listening, r"^listening on https://127\.0\.0\.1:\d+ \(Open Traffic Generator 1\.60\.0, TLS, "
                                         r"certificate self-signed, SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}\)")
        cert, key = os.path.join(self.dir, "otg.crt"), os.path.join(self.dir, "otg.key")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=otg-test",
                        "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        self.start_server("--tls", cert, key)
        self.assertIn("TLS, certificate " + cert, self.listening)
        self.tls = ssl.create_default_context(cafile=cert)  # verified: the server serves this certificate
        self.assertEqual(self.call("GET", "/capabilities/version")[0], 200)
        self.start_server("--http")
        self.assertTrue(self.base.startswith("http://127.0.0.1:"))
        self.assertEqual(self.call("GET", "/capabilities/version")[0], 200)
        # A key that is not the certificate's, and a missing file: said, exit 2.
        other = os.path.join(self.dir, "other.key")
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", other],
                       check=True, capture_output=True)
        for files, said in (([cert, other], "cannot use the key %s: key values mismatch" % other), ([cert + ".no", key], "cannot use the certificate")):
            bad = subprocess.run([LINERATE, "--socket", self.sock, "otg", "serve", "--listen", "127.0.0.1:0", "--tls",
                                  *files], capture_output=True, text=True, timeout=30)
            self.assertEqual(bad.returncode, 2, bad.stderr)
            self.assertIn(said, bad.stderr)

    def test_what_linerate_cannot_do_is_refused_at_its_path(self):
        bad = flow("f1")
        bad["packet"].append({"choice": "gtpv1", "gtpv1": {}})
        bad["tx_rx"]["port"]["rx_names"] = ["tx", "rx9"]
        bad["packet"][2]["ipv4"]["time_to_live"] = {"choice": "values", "values": [1, 2]}
        status, body = self.call("POST", "/config", {"ports": [{"name": "tx", "location": "p0"},
                                                              {"name": "far", "location": "p7"}], "flows": [bad]})
        self.assertEqual(status, 400)
        self.assertEqual(body, {"code": 400, "kind": "validation", "errors": [
            "ports[1].location: 'p7' is not a port of the data plane (it has p0)",
            "flows[0].tx_rx.port.rx_names: linerate measures a flow on one receiving port: name one",
            "flows[0].packet[2].ipv4.time_to_live.values: a list of values is not supported on this field by "
            "linerate",
            "flows[0].packet[4]: gtpv1 is not supported by linerate"]})
        small = flow("f1")
        small["size"]["fixed"] = 40
        status, body = self.call("POST", "/config", {"ports": [{"name": "tx", "location": "p0"}], "flows": [small]})
        self.assertEqual(status, 400)
        self.assertEqual(body["errors"], ["flows: config: key 'stream[0].frame_size': stream 'f1': a 40-byte frame "
                                          "cannot hold its 46 bytes of headers, the 14-byte signature and the FCS; the "
                                          "smallest frame for this stream is 64 bytes"])
        status, body = self.call("POST", "/control/state", {"choice": "traffic", "traffic": {
            "choice": "flow_transmit", "flow_transmit": {"state": "start"}}})
        self.assertEqual((status, body["errors"]), (409, ["control/state: no config: POST /config first"]))
        self.assertEqual(self.call("GET", "/nowhere")[0], 404)


    def address(self):
        host, port = self.base.split("//")[1].rsplit(":", 1)
        return host, int(port)

    def test_connections_over_the_cap_are_answered_503_and_a_closed_one_frees_its_place(self):
        for transport in (["--http"], []):  # plain, then TLS (the refusal after its handshake)
            self.start_server(*transport, "--max-connections", "4")
            idle = [socket.create_connection(self.address(), timeout=10) for _ in range(4)]
            fifth = socket.create_connection(self.address(), timeout=10)
            if not transport:
                fifth = self.tls.wrap_socket(fifth)
            status, fields, body = lrtest.http_reply(fifth, b"GET /capabilities/version HTTP/1.1\r\nHost: x\r\n\r\n")
            fifth.close()
            self.assertEqual((status, fields["Retry-After"], fields["Content-Type"], json.loads(body)), (
                "HTTP/1.1 503 Service Unavailable", "5", "application/json",
                {"code": 503, "kind": "internal",
                 "errors": ["linerate holds at most 4 connections at once; 4 are open"]}))
            # One of the four closes: its place serves the next client.
            idle.pop().close()
            lrtest.wait_until(lambda: self.call("GET", "/capabilities/version")[0] == 200, "a place freed")
            for s in idle:
                s.close()
        self.run_exactly("f1")
        self.assertIsNone(self.otg.poll())

    def test_idle_connections_and_trickled_headers_are_cut_at_the_idle_timeout(self):
        self.start_server("--http", "--idle-timeout", "2")
        quiet = socket.create_connection(self.address(), timeout=10)
        waited = lrtest.seconds_to_close(quiet)
        self.assertTrue(1.9 < waited < 4, waited)
        # A header a byte every 0.25 s (it would take 10 s): cut within the 2 s of the first.
        trickle = socket.create_connection(self.address(), timeout=10)
        header = b"GET /capabilities/version HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"s" * 20 + b"\r\n\r\n"
        started, sent = time.monotonic(), 0
        try:
            while sent < len(header):
                trickle.send(header[sent:sent + 1])
                sent += 1
                time.sleep(0.25)
                trickle.setblocking(False)
                try:
                    if trickle.recv(1) == b"":
                        break
                except BlockingIOError:
                    pass
                finally:
                    trickle.setblocking(True)
        except (BrokenPipeError, ConnectionResetError):
            pass
        cut = time.monotonic() - started
        self.assertTrue(1.9 < cut < 4 and sent < len(header), (cut, sent))
        # A kept-alive client asking every second (4 s in all) is served on one connection,
        # then cut 2 s after its last request.
        keep = http.client.HTTPConnection(*self.address(), timeout=10)
        for _ in range(4):
            keep.request("GET", "/capabilities/version")
            reply = keep.getresponse()
            self.assertEqual((reply.status, json.loads(reply.read())["api_spec_version"]), (200, "1.60.0"))
            if _ == 0:
                first = keep.sock
            self.assertIs(keep.sock, first)
            time.sleep(1)
        self.assertTrue(0.9 < lrtest.seconds_to_close(keep.sock) < 3)
        keep.close()
        self.run_exactly("f1")

    def make_certificates(self):
        """Two CAs, a client certificate signed by each, in the test's directory: {name: path}."""
        paths = {}
        def openssl(*args):
            subprocess.run(["openssl", *args], check=True, capture_output=True)
        for ca in ("ca", "other-ca"):
            paths[ca] = os.path.join(self.dir, ca + ".crt")
            paths[ca + ".key"] = os.path.join(self.dir, ca + ".key")
            openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                    paths[ca + ".key"], "-out", paths[ca], "-days", "2", "-subj", "/CN=" + ca)
            client = os.path.join(self.dir, "client-of-" + ca)
            openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                    client + ".key", "-out", client + ".csr", "-subj", "/CN=snappi")
            openssl("x509", "-req", "-in", client + ".csr", "-CA", paths[ca], "-CAkey", paths[ca + ".key"],
                    "-CAcreateserial", "-out", client + ".crt", "-days", "2")
            paths["client-of-" + ca] = (client + ".crt", client + ".key")
        return paths

    def test_client_ca_admits_only_clients_with_a_certificate_it_signed(self):
        paths = self.make_certificates()
        self.start_server("--client-ca", paths["ca"])
        self.assertRegex(self.listening, r"^listening on https://127\.0\.0\.1:\d+ \(Open Traffic Generator 1\.60\.0, "
                                         r"TLS, certificate self-signed, SHA-256 [0-9A-F:]+; clients must show a "
                                         r"certificate signed by %s\)" % re.escape(paths["ca"]))

        def version(certificate):
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
            if certificate:
                context.load_cert_chain(*certificate)
            connection = http.client.HTTPSConnection(*self.address(), timeout=10, context=context)
            try:
                connection.request("GET", "/capabilities/version")
                return connection.getresponse().status
            except ssl.SSLError as e:
                return e.reason
            finally:
                connection.close()
        self.assertEqual(version(None), "TLSV13_ALERT_CERTIFICATE_REQUIRED")
        self.assertEqual(version(paths["client-of-other-ca"]), "TLSV1_ALERT_UNKNOWN_CA")
        self.assertEqual(version(paths["client-of-ca"]), 200)
        # Refused before serving: with --http (a usage error), a CA file missing or without a certificate.
        for args, said in ((["--http", "--client-ca", paths["ca"]], "--http excludes --client-ca"),
                           (["--client-ca", paths["ca"] + ".no"],
                            "--client-ca %s.no: cannot read it: No such file or directory" % paths["ca"]),
                           (["--client-ca", paths["ca.key"]], "--client-ca %s: no PEM certificate in it" % paths["ca.key"])):
            bad = subprocess.run([LINERATE, "--socket", self.sock, "otg", "serve", "--listen", "127.0.0.1:0", *args],
                                 capture_output=True, text=True, timeout=30)
            self.assertEqual(bad.returncode, 2, bad.stderr)
            self.assertIn(said, bad.stderr)
        self.tls.load_cert_chain(*paths["client-of-ca"])
        self.run_exactly("f1")  # through the server with --client-ca, as a client it admits

    def test_a_server_other_hosts_can_reach_without_client_ca_warns_who_can_drive_it(self):
        paths = self.make_certificates()
        for listen, args, warned in (("0.0.0.0:0", ["--http"], True), ("127.0.0.1:0", ["--http"], False),
                                     ("0.0.0.0:0", ["--client-ca", paths["ca"]], False)):
            server = subprocess.Popen([LINERATE, "--socket", self.sock, "otg", "serve", "--listen", listen, *args],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            port = re.search(r"listening on \S+:(\d+)", server.stdout.readline()).group(1)
            server.terminate()
            _, err = server.communicate(timeout=30)
            warning = ("linerate otg: listening on 0.0.0.0:%s without --client-ca: anyone who can reach this host's "
                       "port %s can configure and start traffic on the data plane's ports; serve TLS with --client-ca "
                       "to require client certificates, or listen on 127.0.0.1\n" % (port, port))
            self.assertEqual(err, warning if warned else "", (listen, args))


    def test_the_header_limit_counts_the_request_line_with_the_fields(self):
        # Beast bounds the line and the fields each on its own; the server holds the whole header.
        def ask(header_bytes):
            start = b"GET /capabilities/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: "
            raw = start + b"p" * (header_bytes - len(start) - 4) + b"\r\n\r\n"
            self.assertEqual(len(raw), header_bytes)
            tls = self.tls.wrap_socket(socket.create_connection(self.address(), timeout=10))
            status, _, body = lrtest.http_reply(tls, raw)
            tls.close()
            return status, json.loads(body)
        self.assertEqual(ask(8192)[0], "HTTP/1.1 200 OK")
        self.assertEqual(ask(8193), ("HTTP/1.1 431 Request Header Fields Too Large", {
            "code": 431, "kind": "validation", "errors": ["the request's header exceeds linerate's limit of 8192 bytes"]}))
        self.run_exactly("f1")


    def test_max_connections_the_file_limit_cannot_hold_is_refused_at_start(self):
        import resource

        def serve(limit, connections):
            return subprocess.Popen([LINERATE, "--socket", self.sock, "otg", "serve", "--listen", "127.0.0.1:0", "--http",
                                     "--max-connections", str(connections)], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True,
                                    preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, limit))
        refused = serve((200, 200), 1000)
        out, err = refused.communicate(timeout=30)
        self.assertEqual((refused.returncode, out, err), (2, "", "linerate: --max-connections 1000 needs about 1128 file "
                                                                "descriptors; this process may open at most 200 (ulimit -n)\n"))
        # A soft limit below, a hard one above: raised, and served.
        raised = serve((200, 4096), 1000)
        self.addCleanup(lambda: raised.poll() is not None or (raised.terminate(), raised.wait(30)))
        self.assertRegex(raised.stdout.readline(), r"^listening on http://127\.0\.0\.1:\d+ ")
        bad = subprocess.run([LINERATE, "--socket", self.sock, "otg", "serve", "--max-connections", "0"],
                             capture_output=True, text=True, timeout=30)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--max-connections: Value 0 not in range 1 to 65536", bad.stderr)


if __name__ == "__main__":
    lrtest.main()
