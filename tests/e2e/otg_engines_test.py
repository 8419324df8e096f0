"""`linerate otg serve` over two data planes: an OTG config whose ports are located on data
planes named in a location map ("west-dp;p0", as ixia-c names a traffic engine's port), with
no data plane served on this host. The flows run as one run over both (EnginePair: mutual TLS,
ports joined by net_memif): each flow's frames counted exactly, sent on one data plane and
received on the other; port metrics by location; latency between the two withheld with the
reason. Each data plane's run is leased: the server renews it while traffic runs however quiet
its client is. A data plane killed mid-run is answered 503 naming it, the other one stopped,
and what was measured stays readable. A capture on a port of another data plane comes back
over its connection. What it refuses: ports of the served data plane mixed in, a data plane
no entry names, a port a data plane lacks."""
import json
import os
import re
import signal
import subprocess
import time
import urllib.request

import engines_run_test
import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument


def flow(name, tx, rx, size, packets=None, pps="50000"):
    """A UDP flow from port `tx` to `rx`: `packets` frames, or continuous when None."""
    duration = ({"choice": "continuous", "continuous": {"gap": 12}} if packets is None else
                {"choice": "fixed_packets", "fixed_packets": {"packets": str(packets), "gap": 12}})
    return {"name": name, "tx_rx": {"choice": "port", "port": {"tx_name": tx, "rx_names": [rx]}},
            "packet": [{"choice": "ethernet", "ethernet": {"src": {"choice": "value", "value": "00:11:22:33:44:55"},
                                                           "dst": {"choice": "value", "value": "00:11:22:33:44:66"}}},
                       {"choice": "ipv4", "ipv4": {"src": {"choice": "value", "value": "10.0.0.1"},
                                                   "dst": {"choice": "value", "value": "10.0.0.2"}}},
                       {"choice": "udp", "udp": {"src_port": {"choice": "value", "value": 5000},
                                                 "dst_port": {"choice": "value", "value": 7000}}}],
            "size": {"choice": "fixed", "fixed": size}, "rate": {"choice": "pps", "pps": pps},
            "duration": duration, "metrics": {"enable": True, "loss": False, "timestamps": False}}


PORTS = [{"name": "west", "location": "west-dp;p0"}, {"name": "east", "location": "east-dp;p0"}]


class OtgOverEngines(engines_run_test.EnginePair):
    def setUp(self):
        engines_run_test.LINERATE = LINERATE
        super().setUp()
        self.locations = os.path.join(self.dir, "locations.json")
        with open(self.locations, "w") as f:
            json.dump({"location_map": [{"location": "west-dp", "endpoint": self.engines[0]},
                                        {"location": "east-dp", "endpoint": self.engines[1]}]}, f)

    def start_server(self, *args, served=None):
        """The server, plain HTTP: with no data plane on its --socket, every port by location; or
        serving the data plane at `served` (--engine HOST:PORT)."""
        dataplane = ["--engine", served] if served else ["--socket", os.path.join(self.dir, "none.sock")]
        where = [] if served else ["--locations", self.locations]
        self.otg = subprocess.Popen([LINERATE, *dataplane, *lrtest.controller_args(self.certs), *args, "otg", "serve",
                                     "--http", "--listen", "127.0.0.1:0", *where],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        server = self.otg
        self.addCleanup(lambda: server.poll() is not None or (server.terminate(), server.wait(30)))
        listening = server.stdout.readline()
        self.assertIn("listening on", listening, server.stderr.read() if server.poll() is not None else "")
        self.base = re.search(r"listening on (\S+:\d+)", listening).group(1)

    def call(self, method, path, body=None):
        return lrtest.otg_call(self.base, method, path, body, timeout=60)

    def transmit(self, state):
        return self.call("POST", "/control/state", {"choice": "traffic", "traffic": {
            "choice": "flow_transmit", "flow_transmit": {"state": state, "flow_names": []}}})

    def metrics(self, kind):
        status, body = self.call("POST", "/monitor/metrics", {"choice": kind, kind: {}})
        self.assertEqual(status, 200, body)
        return {m["name"]: m for m in body[kind + "_metrics"]}

    def test_flows_over_two_data_planes_are_counted_exactly(self):
        self.start_server()
        config = {"ports": PORTS, "flows": [flow("west-east", "west", "east", 128, 20000),
                                            flow("east-west", "east", "west", 256, 10000, "20000")]}
        self.assertEqual(self.call("POST", "/config", config), (200, {"warnings": []}))
        self.assertEqual(self.transmit("start"), (200, {"warnings": []}))
        lrtest.wait_until(lambda: all(m["transmit"] == "stopped" for m in self.metrics("flow").values()),
                          "both flows sent their frames")
        flows = self.metrics("flow")
        for name, sent, size, tx, rx in (("west-east", 20000, 128, "west", "east"),
                                         ("east-west", 10000, 256, "east", "west")):
            m = flows[name]
            self.assertEqual((m["port_tx"], m["port_rx"], m["frames_tx"], m["frames_rx"], m["bytes_tx"],
                              m["bytes_rx"], m["loss"]), (tx, rx, sent, sent, sent * size, sent * size, 0.0), name)
        ports = self.metrics("port")
        self.assertEqual([(p["name"], p["location"], p["frames_tx"], p["frames_rx"]) for p in ports.values()],
                         [("east", "east-dp;p0", 10000, 20000), ("west", "west-dp;p0", 20000, 10000)])
        status, body = self.call("GET", "/linerate/flows")
        self.assertEqual(status, 200)
        for s in body["flows"]:
            self.assertEqual((s["lost"], s["duplicate"], s["out_of_order"]), (0, 0, 0), s["name"])
            self.assertIsNone(s["latency_ns"])
            self.assertIn("one-way latency between data planes needs both clocks on one PTP grandmaster",
                          s["latency_withheld"])

    def test_a_quiet_client_leaves_the_run_going_and_a_stop_counts_it_exactly(self):
        self.start_server("--engine-lease", "0.5")
        config = {"ports": PORTS, "flows": [flow("west-east", "west", "east", 128, None, "20000")]}
        self.assertEqual(self.call("POST", "/config", config), (200, {"warnings": []}))
        self.assertEqual(self.transmit("start"), (200, {"warnings": []}))
        lrtest.wait_until(lambda: self.metrics("flow")["west-east"]["frames_tx"] > 0, "the flow to send")
        time.sleep(3)  # six leases without a request: the server renews them
        before = self.metrics("flow")["west-east"]
        self.assertEqual(before["transmit"], "started")
        time.sleep(0.5)
        self.assertEqual(self.transmit("stop"), (200, {"warnings": []}))
        m = self.metrics("flow")["west-east"]
        self.assertEqual(m["transmit"], "stopped")
        self.assertGreater(m["frames_tx"], before["frames_tx"])  # it was still sending
        self.assertEqual((m["frames_rx"], m["loss"]), (m["frames_tx"], 0.0))

    def add_north(self):
        """A third data plane (net_null), named north-dp in the location map."""
        address, proc = self.add_null_engine()
        with open(self.locations, "w") as f:
            json.dump({"location_map": [{"location": "west-dp", "endpoint": self.engines[0]},
                                        {"location": "east-dp", "endpoint": self.engines[1]},
                                        {"location": "north-dp", "endpoint": address}]}, f)
        return address, proc

    def test_a_data_plane_killed_mid_run_is_503_and_the_others_stop(self):
        north, north_proc = self.add_north()
        self.start_server()
        config = {"ports": PORTS + [{"name": "north", "location": "north-dp;p0"}],
                  "flows": [flow("west-east", "west", "east", 128, None, "20000"),
                            flow("north-west", "north", "west", 128, None, "20000")]}
        self.assertEqual(self.call("POST", "/config", config), (200, {"warnings": []}))
        self.assertEqual(self.transmit("start"), (200, {"warnings": []}))
        # All sending (the start is at an instant ahead, by the data planes' round trips).
        lrtest.wait_until(lambda: all(m["frames_tx"] > 0 for m in self.metrics("flow").values()), "both flows")
        north_proc.send_signal(signal.SIGKILL)
        north_proc.wait(30)
        time.sleep(1.5)  # the server's own watch finds it, within a second
        status, body = self.call("POST", "/monitor/metrics", {"choice": "flow", "flow": {}})
        if status == 503:  # the request found it before the watch did
            self.assertIn("the data plane at %s" % north, body["errors"][0])
            status, body = self.call("POST", "/monitor/metrics", {"choice": "flow", "flow": {}})
        self.assertEqual(status, 200, body)
        flows = {m["name"]: m for m in body["flow_metrics"]}
        self.assertEqual([m["transmit"] for m in flows.values()], ["stopped", "stopped"])
        west_east = flows["west-east"]
        self.assertGreater(west_east["frames_tx"], 0)
        self.assertEqual((west_east["frames_rx"], west_east["loss"]), (west_east["frames_tx"], 0.0))
        # The surviving data planes' runs were stopped: traffic.status says none runs.
        for engine in self.engines:
            status = subprocess.run([LINERATE, *lrtest.controller_args(self.certs), "--engine", engine,
                                     "call", "traffic.status"], capture_output=True, text=True, timeout=60)
            self.assertEqual(status.returncode, 0, status.stderr)
            self.assertFalse(json.loads(status.stdout)["running"], status.stdout)
        # Port metrics ask every data plane: refused while one is away, naming it; a config
        # naming it again likewise.
        code, body = self.call("POST", "/monitor/metrics", {"choice": "port", "port": {}})
        self.assertEqual(code, 503)
        self.assertIn(north, body["errors"][0])
        code, body = self.call("POST", "/config", config)
        self.assertEqual(code, 503)
        self.assertIn(north, body["errors"][0])

    def test_what_it_refuses_names_the_port(self):
        self.start_server()
        mixed = {"ports": [PORTS[0], {"name": "here", "location": "p0"}]}
        self.assertEqual(self.call("POST", "/config", mixed),
                         (400, {"code": 400, "kind": "validation", "errors": [
                             "ports[1].location: 'p0' is a port of the served data plane, beside ports of other data "
                             "planes (ENGINE;PORT): name every port by location, this host's data plane too (serving "
                             "--listen)"]}))
        code, body = self.call("POST", "/config", {"ports": [{"name": "x", "location": "north-dp;p0"}]})
        self.assertEqual(code, 400)
        self.assertEqual(body["errors"], ["ports: port 'north-dp;p0' (location \"north-dp;p0\"): 'north-dp' is not "
                                          "HOST:PORT, and no --locations entry names it (it names east-dp, west-dp)"])
        code, body = self.call("POST", "/config", {"ports": [{"name": "x", "location": "west-dp;p9"}]})
        self.assertEqual(code, 400)
        self.assertEqual(body["errors"], ["ports: port 'west-dp;p9' (location \"west-dp;p9\"): the data plane at %s "
                                          "has no port 'p9' (it has p0)" % self.engines[0]])
        self.assertEqual(self.call("GET", "/capabilities/version")[0], 200)

    def capture_of_a_run(self, config, port):
        """`config` set, a capture started on `port`, its flows run to their end: the capture's
        file as POST /monitor/capture answers it."""
        self.assertEqual(self.call("POST", "/config", config), (200, {"warnings": []}))
        capture = {"choice": "port", "port": {"choice": "capture", "capture": {"port_names": [port], "state": "start"}}}
        self.assertEqual(self.call("POST", "/control/state", capture), (200, {"warnings": []}))
        self.assertEqual(self.metrics("port")[port]["capture"], "started")
        self.assertEqual(self.transmit("start"), (200, {"warnings": []}))
        lrtest.wait_until(lambda: all(m["transmit"] == "stopped" for m in self.metrics("flow").values()), "the flows")
        request = urllib.request.Request(self.base + "/monitor/capture", method="POST",
                                         data=json.dumps({"port_name": port}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as reply:
            self.assertEqual(reply.headers["Content-Type"], "application/octet-stream")
            return reply.read()

    def test_a_capture_on_a_port_of_another_data_plane_comes_back_as_its_file(self):
        """The capture is written on the data plane's host and read back over its connection
        (capture.read, in pieces of 4 MiB): every frame east received and sent, exact."""
        self.start_server()
        config = {"ports": PORTS, "flows": [flow("west-east", "west", "east", 128, 500),
                                            flow("east-west", "east", "west", 1500, 3000, "5000")],
                  "captures": [{"name": "c", "port_names": ["east"], "format": "pcapng"}]}
        data = self.capture_of_a_run(config, "east")
        self.assertEqual(data[:4], bytes([0x0A, 0x0D, 0x0D, 0x0A]))  # a pcapng section header
        self.assertGreater(len(data), 4 << 20)  # 3,000 frames of 1,500 bytes: more than one piece
        path = os.path.join(self.dir, "east.pcapng")
        with open(path, "wb") as f:
            f.write(data)
        out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "frame.packet_flags_direction",
                              "-e", "frame.len"], capture_output=True, text=True, check=True).stdout.split("\n")
        seen = {}
        for line in filter(None, out):
            direction, length = line.split("\t")
            key = ("in" if int(direction, 0) == 1 else "out", int(length))
            seen[key] = seen.get(key, 0) + 1
        self.assertEqual(seen, {("in", 124): 500, ("out", 1496): 3000})  # as captured: without the FCS
        # and the statistics block agrees: 3,500 frames seen, none dropped. (Well under the capture's
        # 4,095 records, less what the lcores' caches may hold: a writer starved by the host's
        # spinning lcores cannot make it drop one.)
        self.assertEqual(lrtest.pcapng_statistics(path), [{"received": 3500, "dropped": 0}])
        self.assertEqual(self.metrics("port")["east"]["capture"], "stopped")  # fetching the file ended it
        # The file was written in east's capture directory on its host, which here is this one:
        # removed when the server ends.
        east = lrtest.engine_capture_dir(self, self.engines[1])
        files = os.listdir(east)
        self.assertEqual(len(files), 1, files)
        self.assertRegex(files[0], r"^linerate-otg-\w+-east-dp_p0\.pcapng$")
        self.otg.terminate()
        self.otg.wait(30)
        self.assertEqual(os.listdir(east), [])

    def test_a_capture_on_the_served_data_plane_over_the_network_comes_back(self):
        """`otg serve --engine HOST:PORT`: the served data plane is on another host, so it writes
        the capture in its capture directory, read back over the connection, removed there."""
        served, _ = self.add_null_engine("net_null0,no-rx=1")  # drops what it sends, receives nothing
        self.start_server(served=served)
        config = {"ports": [{"name": "east", "location": "p0"}],
                  "flows": [flow("east-out", "east", "east", 256, 2000, "5000")],
                  "captures": [{"name": "c", "port_names": ["east"], "format": "pcapng"}]}
        data = self.capture_of_a_run(config, "east")
        path = os.path.join(self.dir, "served.pcapng")
        with open(path, "wb") as f:
            f.write(data)
        out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "frame.packet_flags_direction",
                              "-e", "frame.len"], capture_output=True, text=True, check=True).stdout.split("\n")
        sent = [line for line in out if line and int(line.split("\t")[0], 0) == 2]
        self.assertEqual(len(sent), 2000)  # every frame the port sent (net_null: none comes back)
        self.assertEqual(lrtest.pcapng_statistics(path), [{"received": 2000, "dropped": 0}])
        east = lrtest.engine_capture_dir(self, served)
        self.assertEqual(len(os.listdir(east)), 1)
        self.otg.terminate()
        self.otg.wait(30)
        self.assertEqual(os.listdir(east), [])


if __name__ == "__main__":
    lrtest.main()
