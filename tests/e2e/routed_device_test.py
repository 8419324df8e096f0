"""A routed device under test: a network namespace forwarding between two subnets with the
kernel's own ARP, neighbour discovery and ICMP (an implementation independent of
linerate's). linerate's ports are af_packet on veth pairs into it, each with an emulated
host ([[device]]) whose gateway is the router. No static neighbour entry anywhere:

    [port a] lra ==veth== ra 198.18.0.254/24 2001:db8:a::fe/64 --\\  router namespace
    [port b] lrb ==veth== rb 198.19.0.254/24 2001:db8:b::fe/64 --/   (ip_forward)
    host a[0]: 02:00:00:00:0a:01  198.18.0.1/24  2001:db8:a::1/64
    host b[0]: 02:00:00:00:0b:01  198.19.0.1/24  2001:db8:b::1/64
"""
import os
import re
import shutil
import subprocess
import sys
import time
import unittest

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

PROFILE = """
[eal]
lcores = "0-1"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "300ms"
[control]
socket = "%s"
[[port]]
name = "a"
device = "net_af_packet0,iface=lra,qpairs=2"
rx_queues = 2
speed = "1G"
[[port]]
name = "b"
device = "net_af_packet1,iface=lrb,qpairs=2"
rx_queues = 2
speed = "1G"
[[device]]
name = "a"
port = "a"
mac = "02:00:00:00:0a:01"
ipv4 = { address = "198.18.0.1", prefix = 24, gateway = "198.18.0.254" }
ipv6 = { address = "2001:db8:a::1", prefix = 64, gateway = "2001:db8:a::fe" }
[[device]]
name = "b"
port = "b"
mac = "02:00:00:00:0b:01"
ipv4 = { address = "198.19.0.1", prefix = 24, gateway = "198.19.0.254" }
ipv6 = { address = "2001:db8:b::1", prefix = 64, gateway = "2001:db8:b::fe" }
"""


def stream(name, version, src, dst, count=1000, **extra):
    s = {"name": name, "tx_port": "a", "rx_port": "b", "frame_size": 128, "rate": "10kpps",
         "eth": {"src": "auto", "dst": "auto"}, version: {"src": src, "dst": dst}}
    if count is not None:
        s["count"] = count
    s.update(extra)
    return s


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip") and shutil.which("ping"), "needs root, iproute2, ping")
class RoutedDevice(lrtest.RouterCase):
    def setUp(self):
        super().setUp()
        self.make_router([("lra", "ra", "198.18.0.254/24", "2001:db8:a::fe/64"),
                          ("lrb", "rb", "198.19.0.254/24", "2001:db8:b::fe/64")])
        self.router_mac = {p: self.link_mac(p) for p in ("ra", "rb")}
        self.start_service(PROFILE)

    def neighbors(self, port=None):
        return self.client.result("neighbors.list", **({"port": port} if port else {}))

    def resolved(self):
        return {(n["host"], n["address"]): n["mac"] for p in self.neighbors() for n in p["neighbors"]
                if n["state"] == "resolved"}

    def run_streams(self, streams):
        self.client.result("stream.load", streams=streams)
        self.client.result("traffic.start")
        lrtest.wait_until(lambda: self.client.result("traffic.status")["tx_finished"], "the streams sent")
        return self.client.result("traffic.stop")

    def test_each_host_resolves_its_gateway_by_arp_and_nd(self):
        want = {("a[0]", "198.18.0.254"): self.router_mac["ra"], ("b[0]", "198.19.0.254"): self.router_mac["rb"],
                ("a[0]", "2001:db8:a::fe"): self.router_mac["ra"], ("b[0]", "2001:db8:b::fe"): self.router_mac["rb"]}
        lrtest.wait_until(lambda: self.resolved() == want, "the four gateways resolved")
        [a] = self.neighbors("a")
        self.assertEqual((a["port"], a["hosts"], a["tx_queue"]), ("a", 1, 1))
        plan = self.client.result("run.plan")
        self.assertEqual({p["name"]: p["hosts_tx_queue"] for p in plan["ports"]}, {"a": 1, "b": 1})
        gateway = next(n for n in a["neighbors"] if n["address"] == "198.18.0.254")
        self.assertEqual((gateway["host_mac"], gateway["host_address"], gateway["role"], gateway["vlan"]),
                         ("02:00:00:00:0a:01", "198.18.0.1", "gateway", None))
        self.assertRegex(gateway["resolved_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        self.assertEqual(a["counts"]["malformed"], 0)
        self.assertGreaterEqual(a["counts"]["sent"], 3)  # a gratuitous ARP, an ARP request, DAD and NS
        at = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"
        self.assertRegex(a["events"][0], r"^%s port 'a', host a\[0\] \(198\.18\.0\.1\): gateway 198\.18\.0\.254 is at %s$"
                         % (at, self.router_mac["ra"]))
        self.assertRegex(a["events"][1], r"^%s port 'a', host a\[0\] \(2001:db8:a::1\): gateway 2001:db8:a::fe is at %s$"
                         % (at, self.router_mac["ra"]))

    def test_the_router_pings_the_hosts_and_learns_them(self):
        for address, host_mac in (("198.18.0.1", "02:00:00:00:0a:01"), ("2001:db8:b::1", "02:00:00:00:0b:01")):
            ping = subprocess.run(["ip", "netns", "exec", self.router, "ping", "-c", "3", "-i", "0.2", "-W", "2",
                                   address], capture_output=True, text=True, timeout=30)
            self.assertIn("3 packets transmitted, 3 received", ping.stdout, ping.stdout + ping.stderr)
            self.assertIn("lladdr %s" % host_mac, self.rexec("ip", "neigh", "show", address))
        counts = {p["port"]: p["counts"] for p in self.neighbors()}
        self.assertGreaterEqual(counts["a"]["answered"], 3)  # the echoes (and the router's ARP request)
        self.assertGreaterEqual(counts["b"]["answered"], 3)

    def test_streams_through_the_router_with_no_static_entry_arrive_exactly(self):
        report = self.run_streams([stream("v4", "ipv4", "198.18.0.1", "198.19.0.1"),
                                   stream("v6", "ipv6", "2001:db8:a::1", "2001:db8:b::1", udp={"src": 1025})])
        for name in ("v4", "v6"):
            s = self.stream(report, name)
            self.assertEqual((s["tx_packets"], s["rx_packets"], s["lost"]), (1000, 1000, 0), name)
        # The router forwarded them (its counters, an independent count), to the hosts' MACs.
        self.assertIn("lladdr 02:00:00:00:0b:01", self.rexec("ip", "neigh", "show", "198.19.0.1"))

    def test_linerate_run_and_neighbors_through_the_cli(self):
        lrtest.wait_until(lambda: len(self.resolved()) == 4, "the four gateways")
        shown = self.cli("neighbors", "b")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertRegex(shown.stdout, r"(?m)^port b: 1 host, sending on TX queue 1\n  host +host address")
        self.assertRegex(shown.stdout, r"(?m)^  b\[0\] +198\.19\.0\.1 +- +gateway +198\.19\.0\.254 +resolved +%s +1 "
                         % self.router_mac["rb"])
        # A profile with the service's ports, its devices (sent with device.load) and a stream.
        profile = self.write_profile((PROFILE % ("unused", self.sock_path)) + """
[[stream]]
name = "cli"
tx_port = "b"
rx_port = "a"
frame_size = 256
rate = "5kpps"
count = 500
eth = { src = "auto", dst = "auto" }
ipv6 = { src = "2001:db8:b::1", dst = "2001:db8:a::1" }
""", "run.toml")
        run = self.cli("run", profile)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertRegex(run.stdout, r"(?m)^cli +500 +\S+ +\S+ +0 +500 +0 ")
        self.assertIn("\nemulated hosts:\nport a: 1 host, sending on TX queue 1\n", run.stdout)

    def test_the_exporter_shows_the_hosts(self):
        lrtest.wait_until(lambda: len(self.resolved()) == 4, "the four gateways")
        exporter = subprocess.Popen([LINERATE, "--socket", self.sock_path, "exporter", "--listen", "127.0.0.1:0"],
                                    stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: exporter.poll() is not None or (exporter.terminate(), exporter.wait(30)))
        port = int(exporter.stdout.readline().split()[2].split(":")[1])
        import urllib.request
        page = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=20).read().decode()
        for port_name in ("a", "b"):
            self.assertIn('lr_hosts{port="%s"} 1\n' % port_name, page)
            self.assertIn('lr_hosts_neighbors{port="%s",state="resolved"} 2\n' % port_name, page)
            self.assertRegex(page, r'lr_hosts_sent_frames_total\{port="%s",result="sent"\} [1-9]' % port_name)
        if shutil.which("promtool"):
            check = subprocess.run(["promtool", "check", "metrics"], input=page, capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

    def test_a_ping_during_a_run_is_answered_through_the_slow_path(self):
        self.client.result("stream.load", streams=[stream("long", "ipv4", "198.18.0.1", "198.19.0.1", count=None,
                                                          duration="4s")])
        self.client.result("traffic.start")
        ping = subprocess.run(["ip", "netns", "exec", self.router, "ping", "-c", "5", "-i", "0.2", "-W", "2",
                               "198.19.0.1"], capture_output=True, text=True, timeout=30)
        report = self.client.result("traffic.stop")
        self.assertIn("5 packets transmitted, 5 received", ping.stdout, ping.stdout + ping.stderr)
        s = self.stream(report, "long")
        self.assertEqual(s["tx_packets"], s["rx_packets"])
        self.assertEqual(self.neighbors("b")[0]["counts"]["dropped"], 0)

    def test_a_gateway_that_does_not_exist_refuses_the_run_before_any_traffic(self):
        self.client.result("device.load", devices=[
            {"name": "lost", "port": "a", "mac": "02:00:00:00:0a:09",
             "ipv4": {"address": "198.18.0.9", "prefix": 24, "gateway": "198.18.0.99"}},
            {"name": "b", "port": "b", "mac": "02:00:00:00:0b:01",
             "ipv4": {"address": "198.19.0.1", "prefix": 24, "gateway": "198.19.0.254"}}])
        self.client.result("stream.load", streams=[stream("s", "ipv4", "198.18.0.9", "198.19.0.1")])
        reply = self.client.call("traffic.start")
        self.assertEqual(reply["error"]["code"], -32602, reply)
        self.assertEqual(reply["error"]["message"],
                         "stream 's': eth.dst 'auto': host lost[0] (198.18.0.9) on port 'a' has not resolved its "
                         "gateway 198.18.0.99: 3 ARP requests unanswered")
        self.assertFalse(self.client.result("traffic.status")["running"])
        self.assertEqual([x["tx_packets"] for x in self.client.result("stats.streams")], [0])
        # The gateway appears: the next start asks it again (a failed neighbour is not final).
        self.rexec("ip", "addr", "add", "198.18.0.99/24", "dev", "ra")
        self.client.result("traffic.start")
        lrtest.wait_until(lambda: self.client.result("traffic.status")["tx_finished"], "the stream sent")
        s = self.stream(self.client.result("traffic.stop"), "s")
        self.assertEqual((s["tx_packets"], s["rx_packets"], s["lost"]), (1000, 1000, 0))

    def test_a_thousand_hosts_on_one_port_all_reach_the_routers_neighbour_table(self):
        self.rexec("ip", "addr", "add", "198.20.3.254/22", "dev", "ra")
        self.client.result("device.load", devices=[
            {"name": "many", "port": "a", "mac": "02:00:00:01:00:01", "count": 1000,
             "ipv4": {"address": "198.20.0.1", "prefix": 22, "gateway": "198.20.3.254"}}])
        lrtest.wait_until(lambda: len(self.resolved()) == 1000, "the thousand hosts to resolve their gateway")
        [a] = self.neighbors("a")
        self.assertEqual((a["hosts"], a["counts"]["dropped"], a["counts"]["send_failed"]), (1000, 0, 0))
        self.assertEqual({n["mac"] for n in a["neighbors"]}, {self.router_mac["ra"]})

        def router_entries():
            out = self.rexec("ip", "-4", "neigh", "show", "dev", "ra")
            return dict(re.findall(r"^(198\.20\.\d+\.\d+) lladdr (\S+)", out, re.M))
        # Each host asked the router for its gateway, so the router keeps an entry for each.
        entries = lrtest.wait_until(lambda: len(router_entries()) == 1000 and router_entries(), "1,000 router entries")
        for i in (0, 1, 253, 999):
            address = "198.20.%d.%d" % ((1 + i) // 256, (1 + i) % 256)
            self.assertEqual(entries[address], "02:00:00:01:%02x:%02x" % ((1 + i) >> 8, (1 + i) & 0xFF), address)

    def test_an_arp_storm_costs_the_streams_nothing_and_every_frame_received_is_counted(self):
        import socket
        storm = 20000
        self.client.result("stream.load", streams=[stream("during", "ipv4", "198.18.0.1", "198.19.0.1", count=None,
                                                          duration="3s")])
        lrtest.wait_until(lambda: len(self.resolved()) == 4, "the gateways")
        before = self.neighbors("b")[0]["counts"]
        self.client.result("traffic.start")
        # From the router's side of b: requests for an address no host has, as fast as Python sends.
        request = bytes.fromhex("ffffffffffff" "020000000099" "0806" "0001080006040001" "020000000099" "c6130063"
                                "000000000000" "c61300c8") + bytes(18)
        sender = subprocess.Popen(["ip", "netns", "exec", self.router, sys.executable, "-c",
                                   "import socket,sys\ns=socket.socket(socket.AF_PACKET,socket.SOCK_RAW)\n"
                                   "s.bind(('rb',0))\nf=bytes.fromhex(sys.argv[1])\n"
                                   "for _ in range(int(sys.argv[2])): s.send(f)\n", request.hex(), str(storm)])
        self.assertEqual(sender.wait(60), 0)
        lrtest.wait_until(lambda: not self.client.result("traffic.status")["running"] or
                          self.client.result("traffic.status")["tx_finished"], "the stream's 3 s")
        report = self.client.result("traffic.stop")
        s = self.stream(report, "during")
        self.assertEqual((s["rx_packets"], s["lost"]), (s["tx_packets"], 0))
        # Every frame without a signature that port b's workers received went to the hosts (the
        # storm, the router's own ARP / ND) and was counted by verdict or as a drop, but for the
        # router's multicast listener reports, whose hop-by-hop header is not the hosts' business
        # (a few). The veth drops part of a storm this fast before the port: what arrived counts.
        after = self.neighbors("b")[0]["counts"]
        handled = sum(after[k] - before[k] for k in ("answered", "no_reply", "not_for_us", "malformed", "unsupported",
                                                      "dropped"))
        received = self.port(report, "b")["rx_no_signature"]
        self.assertGreater(received, storm // 10)
        self.assertLessEqual(handled, received, after)
        self.assertLessEqual(received - handled, 4, after)

    def test_after_a_link_flap_the_hosts_announce_themselves_and_resolve_again(self):
        def gateway_of_b():
            return next(n for n in self.neighbors("b")[0]["neighbors"] if n["address"] == "198.19.0.254")
        lrtest.wait_until(lambda: len(self.resolved()) == 4, "the four gateways")
        first = gateway_of_b()
        sent = self.neighbors("b")[0]["counts"]["sent"]
        self.rexec("ip", "link", "set", "rb", "down")
        lrtest.wait_until(lambda: self.nsexec_out("cat", "/sys/class/net/lrb/carrier").strip() == "0",
                          "lrb's carrier to drop")
        time.sleep(0.3)  # the hosts look at the link every 5 ms: they see it down
        self.rexec("ip", "link", "set", "rb", "up")
        again = lrtest.wait_until(lambda: gateway_of_b()["state"] == "resolved" and
                                  gateway_of_b()["resolved_at"] != first["resolved_at"] and gateway_of_b(),
                                  "b's gateway resolved again")
        self.assertEqual((again["state"], again["mac"], again["tries"]), ("resolved", self.router_mac["rb"], 1))
        # A gratuitous ARP, an unsolicited NA per preferred address (link-local, global), the ARP
        # request and the NS again.
        self.assertGreaterEqual(self.neighbors("b")[0]["counts"]["sent"] - sent, 5)

    def test_device_load_keeps_the_hosts_of_a_port_whose_hosts_did_not_change(self):
        lrtest.wait_until(lambda: len(self.resolved()) == 4, "the four gateways")
        before = {p["port"]: p for p in self.neighbors()}
        profile_devices = self.client.result("device.list")["devices"]
        more_b = [dict(d, count=3) if d["name"] == "b" else d for d in profile_devices]
        self.assertEqual(self.client.result("device.load", devices=more_b)["hosts"], 4)
        lrtest.wait_until(lambda: len(self.resolved()) == 8, "b's three hosts resolved")
        after = {p["port"]: p for p in self.neighbors()}
        # Port a's host went on as it was: the same resolution, nothing sent again.
        self.assertEqual(after["a"]["neighbors"], before["a"]["neighbors"])
        self.assertEqual(after["a"]["counts"]["sent"], before["a"]["counts"]["sent"])
        # Port b's started over, three of them.
        self.assertEqual(after["b"]["hosts"], 3)
        self.assertGreater(after["b"]["counts"]["sent"], 0)
        self.assertNotEqual([n["resolved_at"] for n in after["b"]["neighbors"] if n["host"] == "b[0]"],
                            [n["resolved_at"] for n in before["b"]["neighbors"] if n["host"] == "b[0]"])

    def test_an_ipv6_address_the_router_holds_is_reported_duplicate_and_not_used(self):
        self.client.result("device.load", devices=[
            {"name": "dup", "port": "a", "mac": "02:00:00:00:0a:07",
             "ipv6": {"address": "2001:db8:a::fe", "prefix": 64}}])
        said = lrtest.wait_until(lambda: [e for e in self.neighbors("a")[0]["events"] if "duplicate" in e],
                                 "the duplicate reported")
        self.assertRegex(said[0], r"port 'a', host dup\[0\]: IPv6 address 2001:db8:a::fe is a duplicate: .* during DAD; "
                                  r"the address is not used$")
        self.assertRegex(said[0], r"is a duplicate: %s " % re.escape(self.router_mac["ra"]))  # the router's answer
        self.assertEqual(self.neighbors("a")[0]["counts"]["answered"], 0)  # never answered for

    def nsexec_out(self, *cmd):
        return subprocess.run(["ip", "netns", "exec", self.ns, *cmd], capture_output=True, text=True).stdout

    def test_neighbors_of_a_port_without_hosts_or_of_no_port_are_refused(self):
        self.client.result("device.load", devices=[])
        self.assertEqual(self.neighbors(), [])
        for port, message in (("a", "port 'a' has no emulated hosts (a [[device]] on it, or device.load, gives it "
                                    "some)"), ("zz", "no port is named 'zz'")):
            reply = self.client.call("neighbors.list", port=port)
            self.assertEqual(reply["error"]["message"], message)


if __name__ == "__main__":
    lrtest.main()
