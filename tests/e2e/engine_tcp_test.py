"""A data plane served over the network: linerate-dataplane --serve --listen on net_ring,
driven by `linerate --engine` over mutual TLS with certificates scripts/engine-certs.sh
made. What it refuses (a peer without a certificate, one another CA signed, plain TCP, a
controller of another protocol, options that would expose it), what `hello` tells a
controller, and a run over the link counted as exactly as over the Unix socket."""
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import unittest

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

PROFILE = lrtest.RING_SERVICE + """[[stream]]
name = "s1"
tx_port = "p0"
rx_port = "p0"
frame_size = 128
rate = "20kpps"
"""



class EngineOverTcp(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.certs = os.path.join(self.dir, "certs")
        self.other = os.path.join(self.dir, "other-ca")
        for folder in (self.certs, self.other):
            subprocess.run([os.path.join(ROOT, "scripts", "engine-certs.sh"), folder, "127.0.0.1"], check=True,
                           capture_output=True)
        self.sock_path = os.path.join(self.dir, "dp.sock")
        self.prefix = "lr-e2e-tcp-%d" % os.getpid()
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + self.prefix, True)
        self.profile = self.write_profile(PROFILE % (self.prefix, self.sock_path))
        self.port = lrtest.free_port()
        self.address = "127.0.0.1:%d" % self.port
        self.proc = None

    def cert(self, name, folder=None):
        return os.path.join(folder or self.certs, name)

    def serve(self, *listen_args):
        self.proc = subprocess.Popen([lrtest.BINARY, "--config", self.profile, "--serve", *listen_args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(self.stop_service)
        lrtest.wait_for_socket(self, self.proc, self.sock_path)

    def serve_tls(self, *args):
        self.serve("--listen", self.address, "--tls-ca", self.cert("ca.pem"), "--tls-cert", self.cert("engine-1.pem"),
                   "--tls-key", self.cert("engine-1.key"), *args)

    def stop_service(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.out, self.err = self.proc.communicate(timeout=30)
        return self.proc.returncode

    def capture_profile(self, here, count, capture_count=None):
        """The profile of `count` frames on p0 with a [[capture]] of p0 into `here`."""
        capture = '[[capture]]\nport = "p0"\nfile = "%s"\n' % here
        if capture_count is not None:
            capture += "count = %d\n" % capture_count
        return self.write_profile((PROFILE.replace('rate = "20kpps"', 'rate = "20kpps"\ncount = %d' % count) + capture)
                                  % (self.prefix, self.sock_path), "capture.toml")

    def engine_cli(self, *args, folder=None):
        tls = ["--engine-ca", self.cert("ca.pem"), "--engine-cert", self.cert("controller.pem", folder),
               "--engine-key", self.cert("controller.key", folder)]
        return subprocess.run([LINERATE, "--engine", self.address, *tls, *args], capture_output=True, text=True,
                              timeout=60)

    def tls_client(self, cert_folder=None, with_cert=True):
        """A raw JSON-RPC client over TLS, as another controller would be."""
        context = ssl.create_default_context(cafile=self.cert("ca.pem"))
        if with_cert:
            context.load_cert_chain(self.cert("controller.pem", cert_folder), self.cert("controller.key", cert_folder))
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=20)
        return context.wrap_socket(raw, server_hostname="127.0.0.1")

    def call(self, sock, method, **params):
        sock.sendall((json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}) + "\n").encode())
        line = b""
        while not line.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed after %r" % line)
            line += chunk
        return json.loads(line)

    def test_the_cli_and_a_run_over_mutual_tls(self):
        self.serve_tls()
        hello = json.loads(self.engine_cli("hello").stdout)
        self.assertEqual((hello["server"], hello["protocol"], hello["node"]),
                         ("linerate-dataplane", 2, socket.gethostname()))
        port = hello["ports"][0]
        self.assertEqual((port["name"], port["device"], port["speed_bps"], port["link_up"]),
                         ("p0", "net_ring0", 10_000_000_000, True))
        self.assertRegex(port["mac"], "^([0-9a-f]{2}:){5}[0-9a-f]{2}$")
        self.assertIn("numa_node", port)
        self.assertEqual([l["lcore"] for l in hello["lcores"]], [1])
        self.assertFalse(hello["clock"]["synchronised"])
        self.assertLess(hello["clock"]["tsc_utc_error_ns"], 10_000)
        self.assertIn("no ptp4l to read", hello["clock"]["why"])  # none serves /var/run/ptp4l here
        # A run over the link: the same exact counts as over the Unix socket.
        run_profile = self.write_profile(PROFILE.replace('rate = "20kpps"', 'rate = "50kpps"\ncount = 20000')
                                         % (self.prefix, self.sock_path), "run.toml")
        report_file = os.path.join(self.dir, "run.json")
        run = self.engine_cli("run", run_profile, "--report", report_file)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(report_file) as f:
            s = json.load(f)["streams"][0]
        self.assertEqual((s["tx_packets"], s["rx_packets"], s["lost"]), (20000, 20000, 0))
        # The environment names the engine and the files as well as the options do.
        env = dict(os.environ, LINERATE_ENGINE=self.address, LINERATE_ENGINE_CA=self.cert("ca.pem"),
                   LINERATE_ENGINE_CERT=self.cert("controller.pem"), LINERATE_ENGINE_KEY=self.cert("controller.key"))
        ports = subprocess.run([LINERATE, "--json", "ports"], capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(ports.returncode, 0, ports.stderr)
        self.assertEqual(json.loads(ports.stdout)[0]["name"], "p0")

    def test_a_controller_over_the_network_writes_captures_in_the_capture_directory_only(self):
        """capture.start over TCP takes a file name, written in --capture-dir (made 0700); a path
        of this host (absolute, or climbing out) is refused, and nothing is written there."""
        captures = os.path.join(self.dir, "captures")
        self.serve_tls("--capture-dir", captures)
        remote = self.tls_client()
        outside = os.path.join(self.dir, "outside.pcapng")
        for file in (outside, "../outside.pcapng", "a/b.pcapng", ".hidden", ""):
            error = self.call(remote, "capture.start", port="p0", file=file)["error"]
            self.assertEqual(error["code"], -32602, error)
            self.assertEqual(error["message"], "params.file: '%s' is not a file name: a controller over the network "
                             "names a file (letters, digits, '.', '_', '-', '+'; not starting with '.') in this data "
                             "plane's capture directory %s, never a path of its host" % (file, captures))
        self.assertFalse(os.path.exists(outside))
        self.assertFalse(os.path.exists(captures))  # nothing asked for it yet
        started = self.call(remote, "capture.start", port="p0", file="p0-rx.pcapng")["result"]
        self.assertEqual(started["file"], os.path.join(captures, "p0-rx.pcapng"))
        self.assertEqual(os.stat(captures).st_mode & 0o777, 0o700)
        self.call(remote, "capture.stop", id=started["id"])
        self.assertTrue(os.path.isfile(os.path.join(captures, "p0-rx.pcapng")))
        self.assertTrue(self.call(remote, "capture.remove", id=started["id"])["result"]["removed"])
        self.assertEqual(os.listdir(captures), [])
        # A link planted where a capture would be written is not followed.
        os.symlink(outside, os.path.join(captures, "planted.pcapng"))
        self.assertEqual(self.call(remote, "capture.start", port="p0", file="planted.pcapng")["error"]["message"],
                         "params.file: %s/planted.pcapng is there already and is not a file (a link, a folder)"
                         % captures)
        self.assertFalse(os.path.exists(outside))
        os.remove(os.path.join(captures, "planted.pcapng"))
        # The Unix socket's peer is a process of this host: an absolute path too, and a name.
        local = lrtest.Client(self.sock_path)
        self.addCleanup(local.close)
        mine = local.result("capture.start", port="p0", file=outside)
        self.assertEqual(mine["file"], outside)
        local.result("capture.stop", id=mine["id"])
        self.assertTrue(os.path.isfile(outside))
        # ... which is that process's: the network neither reads nor removes it.
        remote = self.tls_client()
        for method in ("capture.read", "capture.remove"):
            self.assertEqual(self.call(remote, method, id=mine["id"])["error"]["message"],
                             "params.id: capture %d was written outside the capture directory %s, where a process of "
                             "this host asked: a controller over the network reads and removes only the files there"
                             % (mine["id"], captures))
        remote.close()
        self.assertTrue(os.path.isfile(outside))
        # A capture directory others may write in is refused, before anything is written.
        os.chmod(captures, 0o777)
        self.assertEqual(local.call("capture.start", port="p0", file="x.pcapng")["error"]["message"],
                         "the capture directory %s is one others may write in: give --capture-dir a folder only this "
                         "data plane's user may write" % captures)
        self.assertEqual(os.listdir(captures), [])
        self.assertEqual(local.call("capture.start", port="p0", file="a/b.pcapng")["error"]["message"],
                         "params.file: 'a/b.pcapng' is neither an absolute path nor a file name (letters, digits, '.', "
                         "'_', '-', '+'; not starting with '.') for the capture directory %s" % captures)

    def test_linerate_capture_on_a_data_plane_over_the_network_brings_its_file_back(self):
        """`linerate --engine HOST:PORT capture -w FILE`: written in the data plane's capture
        directory, read back over the connection into FILE here, removed there."""
        captures = os.path.join(self.dir, "captures")
        self.serve_tls("--capture-dir", captures)
        tls = ["--engine-ca", self.cert("ca.pem"), "--engine-cert", self.cert("controller.pem"),
               "--engine-key", self.cert("controller.key")]
        out = os.path.join(self.dir, "here.pcapng")
        capture = subprocess.Popen([LINERATE, "--engine", self.address, *tls, "capture", "p0", "-w", out, "--count",
                                    "500"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: capture.poll() is not None or (capture.kill(), capture.communicate()))
        lrtest.wait_until(lambda: os.path.isdir(captures) and os.listdir(captures), "the capture to start")
        self.assertEqual(self.engine_cli("start").returncode, 0)
        printed, err = capture.communicate(timeout=60)
        written = re.search(r"500 written \((\d+) bytes in %s\)" % re.escape(out), printed)
        self.assertIsNotNone(written, printed)
        self.assertEqual(int(written.group(1)), os.path.getsize(out))  # the whole file came back
        self.assertEqual(capture.returncode, 0, err)
        self.assertRegex(err, r"capturing on p0 into %s/linerate-capture-\d+-p0\.pcapng \(on the data plane's host, "
                              r"then read back into %s\)" % (re.escape(captures), re.escape(out)))
        self.engine_cli("stop")
        frames = subprocess.run(["tshark", "-r", out, "-T", "fields", "-e", "frame.len"], capture_output=True,
                                text=True, check=True).stdout.split()
        self.assertEqual(frames, ["124"] * 500)  # 128-byte frames, as captured: without the FCS
        self.assertEqual(os.listdir(captures), [])

    def test_a_profiles_capture_on_a_data_plane_over_the_network_comes_back_into_its_file(self):
        """`linerate --engine HOST:PORT run` with a [[capture]]: written in the data plane's capture
        directory, read back into the profile's file here, removed there."""
        captures = os.path.join(self.dir, "captures")
        self.serve_tls("--capture-dir", captures)
        here = os.path.join(self.dir, "run-p0.pcapng")
        run_profile = self.capture_profile(here, 1000)
        report_file = os.path.join(self.dir, "capture.json")
        run = self.engine_cli("run", run_profile, "--report", report_file)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(report_file) as f:
            report = json.load(f)
        [capture] = report["captures"]
        self.assertEqual((capture["file"], capture["captured"], capture["capture_dropped"]), (here, 1000, 0))
        frames = subprocess.run(["tshark", "-r", here, "-T", "fields", "-e", "frame.len"], capture_output=True,
                                text=True, check=True).stdout.split()
        self.assertEqual(frames, ["124"] * 1000)
        self.assertEqual(os.listdir(captures), [])

    def test_a_capture_that_cannot_come_back_is_refused_before_the_traffic(self):
        """The profile's capture file, or `capture -w`, names a folder that does not exist here:
        refused before anything starts, with the file and why."""
        captures = os.path.join(self.dir, "captures")
        self.serve_tls("--capture-dir", captures)
        here = os.path.join(self.dir, "missing", "run-p0.pcapng")
        run_profile = self.capture_profile(here, 1000)
        report_file = os.path.join(self.dir, "capture.json")
        run = self.engine_cli("run", run_profile, "--report", report_file)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("linerate: the capture on p0 could not be brought back into %s: No such file or directory\n"
                      % here, run.stderr)
        self.assertFalse(os.path.exists(report_file))
        capture = self.engine_cli("capture", "p0", "-w", here, "--count", "10")
        self.assertEqual(capture.returncode, 1, capture.stderr)
        self.assertIn("linerate: the capture on p0 could not be brought back into %s: No such file or directory\n"
                      % here, capture.stderr)
        self.assertFalse(os.path.isdir(captures) and os.listdir(captures))  # no capture started
        self.assertEqual(self.engine_cli("stats").returncode, 0)  # and the data plane serves on

    def test_a_capture_whose_folder_went_away_stays_there_and_the_report_says_where(self):
        """The folder of the profile's capture file is removed while the run goes on: the run
        ends and its report is written, the capture's error names the file left in the data
        plane's capture directory and why it did not come; the exit code says so (1)."""
        captures = os.path.join(self.dir, "captures")
        self.serve_tls("--capture-dir", captures)
        folder = os.path.join(self.dir, "going")
        os.mkdir(folder)
        here = os.path.join(folder, "run-p0.pcapng")
        run_profile = self.capture_profile(here, 100000, capture_count=1000)  # 5 s: time to remove the folder
        report_file = os.path.join(self.dir, "capture.json")
        tls = ["--engine-ca", self.cert("ca.pem"), "--engine-cert", self.cert("controller.pem"),
               "--engine-key", self.cert("controller.key")]
        run = subprocess.Popen([LINERATE, "--engine", self.address, *tls, "run", run_profile, "--report", report_file],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: run.poll() is not None or (run.kill(), run.communicate()))
        lrtest.wait_until(lambda: os.path.isdir(captures) and os.listdir(captures), "the capture to start")
        os.rmdir(folder)
        _, err = run.communicate(timeout=60)
        with open(report_file) as f:
            report = json.load(f)
        self.assertEqual(report["streams"][0]["rx_packets"], 100000)  # the run's results are all there
        [capture] = report["captures"]
        [there] = os.listdir(captures)
        self.assertRegex(there, r"^linerate-run-\d+-p0\.pcapng$")
        error = ("its file stays in the capture directory of the data plane's host (%s): %s.part cannot be written: "
                 "No such file or directory" % (os.path.join(captures, there), here))
        self.assertEqual((capture["file"], capture["captured"], capture["error"]),
                         (os.path.join(captures, there), 1000, error))
        self.assertIn("linerate: the capture on p0: %s\n" % error, err)
        self.assertEqual(run.returncode, 1, err)
        self.assertFalse(os.path.exists(folder))

    def test_a_port_owned_over_the_network_names_its_owner(self):
        self.serve_tls()
        remote = self.tls_client()
        self.assertIn("result", self.call(remote, "session.acquire", ports=["p0"]))
        local = lrtest.Client(self.sock_path)
        refused = local.call("traffic.start")["error"]["message"]
        self.assertRegex(refused, r"port 'p0' is owned by session \d+ \(127\.0\.0\.1:\d+, certificate "
                                  r"'linerate controller'\)")
        remote.close()  # its ownership ends with the connection
        lrtest.wait_until(lambda: "result" in local.call("session.acquire", ports=["p0"]), "the port freed")
        local.close()

    def test_peers_without_the_cas_certificate_are_refused_at_the_handshake(self):
        self.serve_tls()
        for label, client in (("no certificate", lambda: self.tls_client(with_cert=False)),
                              ("another CA's", lambda: self.tls_client(self.other))):
            with self.subTest(label):
                # TLS 1.3 finishes the client's side first: the refusal arrives as the first read fails.
                with self.assertRaises((ssl.SSLError, ConnectionError, OSError)):
                    sock = client()
                    self.call(sock, "hello")
        wrong = self.engine_cli("ports", folder=self.other)
        self.assertEqual(wrong.returncode, 3)
        self.assertIn("refused this controller's certificate", wrong.stderr)
        plain = subprocess.run([LINERATE, "--engine", self.address, "ports"], capture_output=True, text=True,
                               timeout=60)
        self.assertEqual(plain.returncode, 3)
        self.assertIn("needs --engine-ca, --engine-cert and --engine-key", plain.stderr)
        # The controller checks the data plane's certificate names the host it dialled.
        self.address = "localhost:%d" % self.port
        misnamed = self.engine_cli("ports")
        self.assertEqual(misnamed.returncode, 3)
        self.assertIn("certificate verify failed", misnamed.stderr)
        self.assertIn("name localhost", misnamed.stderr)
        self.assertIsNone(self.proc.poll(), "refused peers never end the service")
        self.assertEqual(self.stop_service(), 0)
        # Each refused peer said once, with OpenSSL's reason: no certificate, another CA's (raw, then
        # the CLI's), plain TCP, and the controller that gave up on a misnamed certificate.
        reasons = [line.split(": ", 2)[2] for line in self.err.splitlines() if "at the TLS handshake" in line]
        self.assertEqual(reasons, ["peer did not return a certificate", "certificate verify failed",
                                   "certificate verify failed", "wrong version number", "tlsv1 alert internal error"],
                         self.err)

    def test_a_controller_of_another_protocol_is_refused_at_hello(self):
        self.serve_tls()
        sock = self.tls_client()
        error = self.call(sock, "hello", client="old", protocol=1)["error"]["message"]
        self.assertIn("this data plane speaks protocol 2", error)
        self.assertIn("the client speaks protocol 1", error)
        self.assertEqual(self.call(sock, "hello", client="same", protocol=2)["result"]["protocol"], 2)
        sock.close()

    def test_plain_tcp_only_on_loopback_and_when_asked(self):
        self.serve("--listen", self.address, "--insecure")
        with socket.create_connection(("127.0.0.1", self.port), timeout=20) as sock:
            self.assertEqual(self.call(sock, "hello")["result"]["ports"][0]["name"], "p0")
        ports = subprocess.run([LINERATE, "--engine", self.address, "--json", "ports"], capture_output=True,
                               text=True, timeout=60)
        self.assertEqual(json.loads(ports.stdout)[0]["name"], "p0", ports.stderr)

    def test_options_that_would_expose_it_are_refused_before_the_ports_come_up(self):
        ca, cert, key = self.cert("ca.pem"), self.cert("engine-1.pem"), self.cert("engine-1.key")
        cases = [
            (["--listen", self.address], "serves the network over mutual TLS; give --tls-ca, --tls-cert and --tls-key"),
            (["--listen", "0.0.0.0:%d" % self.port, "--insecure"], "plain TCP is served on a loopback address only"),
            (["--listen", self.address, "--tls-ca", ca, "--tls-cert", cert], "--tls-key missing"),
            (["--listen", self.address, "--tls-ca", ca, "--tls-cert", cert, "--tls-key",
              self.cert("controller.key")], "--tls-key %s: key values mismatch" % self.cert("controller.key")),
            (["--listen", self.address, "--tls-ca", "/nonexistent.pem", "--tls-cert", cert, "--tls-key", key],
             "--tls-ca /nonexistent.pem: cannot read it"),
            (["--listen", "127.0.0.1:http", "--insecure"], "port 'http' is not a number"),
            (["--listen", "dp1:7300", "--insecure"], "'dp1' is not an IP address"),
            (["--listen", self.address, "--insecure", "--tls-ca", ca, "--tls-cert", cert, "--tls-key", key],
             "give it or --tls-ca, --tls-cert and --tls-key, not both"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                refused = subprocess.run([lrtest.BINARY, "--config", self.profile, "--serve", *args],
                                         capture_output=True, text=True, timeout=60)
                self.assertEqual(refused.returncode, 2, refused.stderr)
                self.assertIn(message, refused.stderr)
                self.assertNotIn("EAL", refused.stderr)  # said before the EAL started
        no_serve = subprocess.run([lrtest.BINARY, "--config", self.profile, "--listen", self.address, "--insecure"],
                                  capture_output=True, text=True, timeout=60)
        self.assertEqual((no_serve.returncode, no_serve.stderr.strip()),
                         (2, "linerate-dataplane: --listen serves the control methods: it needs --serve"))


if __name__ == "__main__":
    lrtest.main()
