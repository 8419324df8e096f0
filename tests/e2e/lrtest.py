"""Helpers for the e2e tests: run linerate-dataplane on a profile in a temp dir."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

BINARY = None  # set from argv[1] by main()


# A serving data plane's profile on one loopback port, p0 (net_ring0 at 10G); the template
# gets the EAL file prefix and the control socket path, in that order (%s, %s).
RING_SERVICE = """
[eal]
lcores = "0-1"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "100ms"
[control]
socket = "%s"
[[port]]
name = "p0"
device = "net_ring0"
speed = "10G"
"""


class DataplaneCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="lr-e2e-")
        self.dir = self.tmp.name
        # The CLI keeps the last run's report in the user's state directory: each test its own.
        state = os.environ.get("XDG_STATE_HOME")
        os.environ["XDG_STATE_HOME"] = os.path.join(self.dir, "state")
        self.addCleanup(lambda: os.environ.__setitem__("XDG_STATE_HOME", state) if state is not None
                        else os.environ.pop("XDG_STATE_HOME", None))

    def tearDown(self):
        self.tmp.cleanup()

    def write_profile(self, text, name="profile.toml"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_dataplane(self, profile_text, *args, prefix=(), timeout=120):
        """Runs the data plane to completion; returns (CompletedProcess, report or None)."""
        profile = self.write_profile(profile_text)
        report = os.path.join(self.dir, "report.json")
        cmd = list(prefix) + [BINARY, "--config", profile, "--report", report, *args]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        data = None
        if os.path.exists(report) and os.path.getsize(report) > 0:
            with open(report) as f:
                data = json.load(f)
        return proc, data

    def serve(self, profile_path, sock):
        """A data plane serving `profile_path` with its control socket at `sock`, stopped
        (SIGTERM) when the test ends; returns (process, client)."""
        proc = subprocess.Popen([BINARY, "--config", profile_path, "--serve"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

        def stop():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.communicate(timeout=30)
        self.addCleanup(stop)
        wait_for_socket(self, proc, sock)
        client = Client(sock)
        self.addCleanup(client.close)
        return proc, client

    def judged(self, run, attempts=3, report_of=lambda result: result[1], **limits):
        """Calls run() until a run the host did not spoil (host_spoiled(report, **limits) is
        None, report_of(result) being its run report), at most `attempts` times; returns that
        run's result. Each spoiled run is said; when all were, the test is skipped saying why:
        the host's doing is never the device's, nor a bound to widen."""
        for attempt in range(1, attempts + 1):
            result = run()
            why = host_spoiled(report_of(result), **limits)
            if why is None:
                return result
            print("not judged, run %d of %d: %s" % (attempt, attempts, why), flush=True)
        self.skipTest("not judged: %d runs were all spoiled by the host; the last: %s" % (attempts, why))

    def stream(self, report, name):
        for s in report["streams"]:
            if s["name"] == name:
                return s
        self.fail("no stream %s in report" % name)

    def port(self, report, name):
        for p in report["ports"]:
            if p["name"] == name:
                return p
        self.fail("no port %s in report" % name)


class Client:
    """A raw JSON-RPC client of the data plane's control socket."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(20)
        self.sock.connect(path)
        self.file = self.sock.makefile("rw")
        self.next_id = 1

    def send_line(self, line):
        self.file.write(line + "\n")
        self.file.flush()
        return json.loads(self.file.readline())

    def call(self, method, **params):
        self.next_id += 1
        return self.send_line(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))

    def result(self, method, **params):
        reply = self.call(method, **params)
        if "error" in reply:
            raise AssertionError("%s failed: %s" % (method, reply["error"]))
        return reply["result"]

    def close(self):
        self.file.close()
        self.sock.close()


def host_spoiled(report, longest_us=None, total_us=None, window=None):
    """Why the host spoiled a run for checks that a stall of `longest_us` or more (one that
    overlaps `window`, (from_s, to_s) since the start, if given), or `total_us` of stalls in
    all on one lcore, could move: a tester lcore or linerate's switch held up (their own stall
    logs in the report: `lcores`, `switches`); None when it did not."""
    held = [("the tester's lcore %d" % l["lcore"], l) for l in report.get("lcores", [])]
    held += [("linerate's switch '%s' (the device here)" % sw["name"], sw) for sw in report.get("switches", [])]
    for who, log in held:
        if total_us is not None and log.get("stalled_us", 0) >= total_us:
            return "the host held %s up for %.0f us in all (%d times; the checks allow %.0f us)" % (
                who, log["stalled_us"], log.get("stalls", 0), total_us)
        for stall in log.get("longest_stalls", []) if longest_us is not None else []:
            if stall["us"] < longest_us:
                continue
            if window is None or (stall["from_s"] <= window[1] and stall["from_s"] + stall["us"] * 1e-6 >= window[0]):
                return "the host held %s up for %.0f us at %.4f s (the checks allow %.0f us)" % (
                    who, stall["us"], stall["from_s"], longest_us)
    return None


def otg_call(base, method, path, body=None, timeout=30):
    """An OTG request as snappi sends it (JSON body) to the server at `base` (http://HOST:PORT):
    (status, the JSON answer), errors included."""
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def free_port():
    """A TCP port nobody listens on at 127.0.0.1 now (for a server the test starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(predicate, what, timeout=20):
    """Polls `predicate` every 10 ms until it returns something true, which is returned;
    fails after `timeout` s saying what was awaited. Tests wait on events, not clocks."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %d s waiting for %s" % (timeout, what))
        time.sleep(0.01)


def wait_for_frames(client, stream=0, tx=1, rx=0, timeout=20):
    """Waits until stream `stream` (index or name) has sent `tx` and received `rx` frames."""
    def reached():
        streams = client.result("stats.streams")
        s = streams[stream] if isinstance(stream, int) else next(x for x in streams if x["name"] == stream)
        return s if s["tx_packets"] >= tx and s.get("rx_packets", 0) >= rx else None
    return wait_until(reached, "stream %s to send %d and receive %d frames" % (stream, tx, rx), timeout)


def wait_for_socket(test, proc, path):
    """Waits until the service `proc` listens on `path` (fails the test if it exits)."""
    for _ in range(200):
        # The file appears at bind(), a moment before listen(): only a connection says it listens.
        # A stale file (a data plane killed before) is refused, or gone by the connect: the new
        # data plane removes it before it binds its own.
        if os.path.exists(path):
            probe = socket.socket(socket.AF_UNIX)
            try:
                probe.connect(path)
                return
            except (ConnectionRefusedError, FileNotFoundError):
                pass
            finally:
                probe.close()
        if proc.poll() is not None:
            test.fail("data plane exited: %s" % proc.stderr.read())
        time.sleep(0.05)
    test.fail("no control socket at %s" % path)


def engine_profile(lcores, file_prefix, sock, device, speed):
    """A data plane's own profile for the tests of several: its lcores, without hugepages, its
    own file prefix and socket, one port p0 on `device`."""
    return ('[eal]\nlcores = "%s"\nhuge_pages = "off"\nextra_args = ["--file-prefix", "%s"]\n[control]\n'
            'socket = "%s"\n[[port]]\nname = "p0"\ndevice = "%s"\nspeed = "%s"\n'
            % (lcores, file_prefix, sock, device, speed))


def make_engine_certs(test, names=("127.0.0.1",)):
    """A lab CA, a certificate per data plane name (engine-1...) and the controller's, made by
    scripts/engine-certs.sh in the test's directory; returns that directory."""
    certs = os.path.join(test.dir, "certs")
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    subprocess.run([os.path.join(root, "scripts", "engine-certs.sh"), certs, *names], check=True, capture_output=True)
    return certs


def serve_engine(test, profile_path, certs, prefix=(), args=(), env=None, address=None, cert="engine-1"):
    """A data plane serving `profile_path` also over TCP with mutual TLS, on `address` (by
    default a free port of 127.0.0.1) with certificate `cert` of make_engine_certs, stopped
    (SIGTERM) when the test ends; `prefix` runs it elsewhere (ip netns exec NS), `args` are
    more of its options, `env` its environment; its captures go to engine_capture_dir. Returns
    (HOST:PORT, process), not waited for (wait_for_socket)."""
    address = address or "127.0.0.1:%d" % free_port()
    proc = subprocess.Popen([*prefix, BINARY, "--config", profile_path, "--serve", "--quiet", "--listen", address,
                             "--tls-ca", os.path.join(certs, "ca.pem"), "--tls-cert", os.path.join(certs, cert + ".pem"),
                             "--tls-key", os.path.join(certs, cert + ".key"),
                             "--capture-dir", engine_capture_dir(test, address), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def stop():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=30)
    test.addCleanup(stop)
    return address, proc


def engine_capture_dir(test, address):
    """Where the data plane serve_engine started at `address` writes captures named by a file
    name (its --capture-dir): in the test's directory, gone with it."""
    return os.path.join(test.dir, "captures-" + address.replace(":", "_"))


def controller_args(certs):
    """The options a controller gives to reach the data planes of make_engine_certs."""
    return ["--engine-ca", os.path.join(certs, "ca.pem"), "--engine-cert", os.path.join(certs, "controller.pem"),
            "--engine-key", os.path.join(certs, "controller.key")]


def sh(*cmd):
    subprocess.run(cmd, check=True, capture_output=True, text=True)


class NetnsCase(DataplaneCase):
    """A test with its own network namespace, removed afterwards (with all its links)."""

    def setUp(self):
        super().setUp()
        self.ns = "lr-%s-%d" % (type(self).__name__.lower()[:8], os.getpid())
        sh("ip", "netns", "add", self.ns)
        self.addCleanup(sh, "ip", "netns", "del", self.ns)

    def nsexec(self, *cmd):
        sh("ip", "netns", "exec", self.ns, *cmd)

    def make_veth_pairs(self, *pairs):
        """Each (a, b) a veth pair, up, in a namespace without IPv6 (whose ND and MLD
        frames would mix with the test's)."""
        self.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        for a, b in pairs:
            self.nsexec("ip", "link", "add", a, "type", "veth", "peer", "name", b)
            for dev in (a, b):
                self.nsexec("ip", "link", "set", dev, "up")

    def make_bridged_veths(self):
        """lra ==veth== bra -- br0 -- brb ==veth== lrb, all up."""
        self.make_veth_pairs(("lra", "bra"), ("lrb", "brb"))
        self.nsexec("ip", "link", "add", "br0", "type", "bridge")
        for port in ("bra", "brb"):
            self.nsexec("ip", "link", "set", port, "master", "br0")
        self.nsexec("ip", "link", "set", "br0", "up")

    def run_in_netns(self, profile_text, *args):
        return self.run_dataplane(profile_text, *args, prefix=["ip", "netns", "exec", self.ns])


class NetnsServiceCase(NetnsCase):
    """A data plane serving in this test's namespace. The profile template gets the
    EAL file prefix and the control socket path, in that order (%s, %s)."""

    def start_service(self, profile_template):
        self.sock_path = os.path.join(self.dir, "dp.sock")
        prefix = "lr-%s-%d" % (type(self).__name__.lower()[:8], os.getpid())
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        profile = self.write_profile(profile_template % (prefix, self.sock_path))
        self.proc = subprocess.Popen(["ip", "netns", "exec", self.ns, BINARY, "--config", profile, "--serve"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(self.stop_service)
        wait_for_socket(self, self.proc, self.sock_path)
        self.client = Client(self.sock_path)
        self.addCleanup(self.client.close)

    def stop_service(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.communicate(timeout=30)

    def cli(self, *args):
        """The `linerate` CLI on this service's socket."""
        linerate = sys.modules["__main__"].LINERATE
        return subprocess.run([linerate, "--socket", self.sock_path, *args], capture_output=True, text=True, timeout=60)


class RouterCase(NetnsServiceCase):
    """A routed device beside the test's namespace: a second one (its name + "-r") forwarding
    IPv4 and IPv6 (reverse-path filter off) with the kernel's own ARP and neighbour discovery,
    between veth pairs whose other ends are the test namespace's, up and without IPv6 (that
    kernel's ND and MLD would mix with the emulated hosts')."""

    def make_router(self, links):
        """links: (our end, the router's end, its IPv4 address/len, its IPv6 address/len) each."""
        self.router = self.ns + "-r"
        sh("ip", "netns", "add", self.router)
        self.addCleanup(sh, "ip", "netns", "del", self.router)
        self.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        self.rexec("sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1",
                   "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.default.rp_filter=0")
        for ours, theirs, v4, v6 in links:
            self.nsexec("ip", "link", "add", ours, "type", "veth", "peer", "name", theirs, "netns", self.router)
            self.nsexec("ip", "link", "set", ours, "up")
            self.rexec("ip", "addr", "add", v4, "dev", theirs)
            self.rexec("ip", "addr", "add", v6, "dev", theirs, "nodad")
            self.rexec("ip", "link", "set", theirs, "up")

    def rexec(self, *cmd):
        """A command in the router's namespace; its output."""
        return subprocess.run(["ip", "netns", "exec", self.router, *cmd], check=True, capture_output=True,
                              text=True).stdout

    def link_mac(self, dev):
        """The MAC of the router's interface `dev`."""
        return re.search(r"link/ether (\S+)", self.rexec("ip", "link", "show", dev)).group(1)


class TimedResult(unittest.TextTestResult):
    """Says how long each test took, under its verdict: where a suite's time goes."""

    def startTest(self, test):
        self._started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        self.stream.writeln("    took %.1f s" % (time.monotonic() - self._started))


def main():
    global BINARY
    BINARY = sys.argv.pop(1)
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        sys.modules["__main__"].LINERATE = sys.argv.pop(1)  # the CLI, for tests that use it
    unittest.main(verbosity=2, testRunner=unittest.TextTestRunner(resultclass=TimedResult, verbosity=2))


def write_pcap(path, frames):
    """A classic pcap file (Ethernet link type) holding `frames` (bytes, without FCS)."""
    import struct
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, frame in enumerate(frames):
            f.write(struct.pack("<IIII", 1, i, len(frame), len(frame)) + frame)


def read_pcap(path):
    """Frames of a classic pcap file, as bytes (the format is 24 + 16-byte headers)."""
    import struct
    frames = []
    with open(path, "rb") as f:
        header = f.read(24)
        magic = struct.unpack("<I", header[:4])[0]
        endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
        while True:
            record = f.read(16)
            if len(record) < 16:
                return frames
            _sec, _frac, caplen, _origlen = struct.unpack(endian + "IIII", record)
            frames.append(f.read(caplen))


def pcapng_statistics(path):
    """The interface statistics blocks of a pcapng file (little-endian, as linerate writes
    it): [{"received": isb_ifrecv, "dropped": isb_ifdrop}], one per block, in file order."""
    import struct
    blocks = []
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at + 12 <= len(data):
        kind, total = struct.unpack_from("<II", data, at)
        if total < 12 or at + total > len(data):
            raise ValueError("%s: a block of %d bytes at %d, of %d in all" % (path, total, at, len(data)))
        if kind == 5:  # interface statistics: interface id, timestamp (12 bytes), then options
            stats, option = {}, at + 8 + 12
            while option + 4 <= at + total - 4:
                code, length = struct.unpack_from("<HH", data, option)
                if code == 0:
                    break
                if code in (4, 5):  # isb_ifrecv, isb_ifdrop
                    stats["received" if code == 4 else "dropped"] = struct.unpack_from("<Q", data, option + 4)[0]
                option += 4 + (length + 3) // 4 * 4
            blocks.append(stats)
        at += total
    return blocks


def http_reply(sock, request=None, timeout=10):
    """Sends `request` (bytes) on `sock`, if given, and reads the reply to the server's
    close: (status line, {field: value}, body bytes)."""
    sock.settimeout(timeout)
    if request is not None:
        sock.sendall(request)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    return lines[0], dict(line.split(": ", 1) for line in lines[1:]), body


def seconds_to_close(sock, timeout=10):
    """Seconds until the peer closes `sock` without sending anything (recv returns b"",
    or the connection is reset); fails after `timeout` s, or if bytes arrive."""
    started = time.monotonic()
    sock.settimeout(timeout)
    try:
        data = sock.recv(1)
    except ConnectionResetError:
        data = b""
    if data:
        raise AssertionError("the server sent %r instead of closing" % data)
    return time.monotonic() - started
