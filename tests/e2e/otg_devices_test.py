"""linerate otg serve with OTG devices, driven by the real snappi client (1.60.0, built by
shared/tools/snappi-from-mirror; its folder in LR_SNAPPI or on the Python path) as SONiC's
snappi fixtures drive a tester (their devices written field for field): an ethernet per port
with an IPv4 and an IPv6 address and their gateways, and flows between them (tx_rx.device)
whose destination MAC is auto. The routed device is a
network namespace this test makes, the kernel forwarding between two veth subnets and
resolving with its own ARP and neighbour discovery (an independent implementation):

    [linerate p0] lr0 ==veth== r0 198.18.0.254/24 2001:db8:a::fe/64 \\  namespace ROUTER,
    [linerate p1] lr1 ==veth== r1 198.19.0.254/24 2001:db8:b::fe/64 /   ip_forward on

Checked: the hosts resolve their gateways (/monitor/states shows the router's MACs), flows
of IPv4 and IPv6 go through the router with no static entry anywhere and arrive whole, the
router learns the hosts (its `ip neigh`), protocol stop removes the hosts and start brings
them back; a gateway that does not exist is refused before traffic, naming host and
gateway; what linerate cannot do is refused at its path. The data plane's side (device.load,
neighbors.list, eth "auto") lands apart: until it serves device.load, the tests that need
it are skipped, saying so."""
import os
import re
import shutil
import signal
import subprocess
import sys
import unittest

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

if os.environ.get("LR_SNAPPI"):
    sys.path.insert(0, os.environ["LR_SNAPPI"])
try:
    import snappi
except ImportError:
    # snappi as snappi-from-mirror builds it runs on Debian's Python (its grpcio and protobuf):
    # the test goes on there once, when that is not the Python running it.
    if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3" and \
            not os.environ.get("LR_SNAPPI_REEXEC"):
        os.environ["LR_SNAPPI_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3", os.path.abspath(__file__), *sys.argv[1:]])
    snappi = None

# qpairs = 2: the hosts' own TX queue; rx_queues = 2: af_packet's fanout spreads received
# frames over every qpair's socket (as config/examples/routed.toml).
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
name = "p0"
device = "net_af_packet0,iface=lr0,qpairs=2"
rx_queues = 2
speed = "1G"
[[port]]
name = "p1"
device = "net_af_packet1,iface=lr1,qpairs=2"
rx_queues = 2
speed = "1G"
"""

# The ethernets as SONiC's snappi fixtures name them (__l3_intf_config: "Device Port N",
# "Ethernet Port N", "Ipv4 Port N", "Ipv6 Port N", MAC 00:NN:22:33:44:01): MAC, IPv4, IPv6.
E0, E1 = "Ethernet Port 0", "Ethernet Port 1"
HOST = {E0: ("00:00:22:33:44:01", "198.18.0.1", "2001:db8:a::1"),
        E1: ("00:01:22:33:44:01", "198.19.0.1", "2001:db8:b::1")}
GATEWAY = {E0: ("r0", "198.18.0.254", "2001:db8:a::fe"), E1: ("r1", "198.19.0.254", "2001:db8:b::fe")}
NO_HOSTS = "no method 'device.load'"


def refusal(call):
    """The errors of the OTG error snappi raised for `call`, with its status code."""
    try:
        call()
    except Exception as e:  # snappi raises Exception(Error)
        err = e.args[0]
        return err.code, list(err.errors)
    raise AssertionError("not refused")


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip"), "needs root and iproute2")
@unittest.skipUnless(snappi is not None, "snappi is not installed: build it with shared/tools/snappi-from-mirror "
                                         "and give its folder in LR_SNAPPI")
class OtgDevices(lrtest.NetnsServiceCase):
    def setUp(self):
        super().setUp()
        self.router = self.ns + "-r"
        lrtest.sh("ip", "netns", "add", self.router)
        self.addCleanup(lrtest.sh, "ip", "netns", "del", self.router)
        # The tester's side has no IPv6 of its own (its kernel's ND and MLD would mix with the hosts').
        self.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        self.rexec("sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1",
                   "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.default.rp_filter=0")
        for ours, theirs in (("lr0", "r0"), ("lr1", "r1")):
            lrtest.sh("ip", "-n", self.ns, "link", "add", ours, "type", "veth", "peer", "name", theirs,
                      "netns", self.router)
            self.nsexec("ip", "link", "set", ours, "up")
        for ethernet, (dev, v4, v6) in GATEWAY.items():
            self.rexec("ip", "addr", "add", v4 + "/24", "dev", dev)
            self.rexec("ip", "addr", "add", v6 + "/64", "dev", dev, "nodad")
            self.rexec("ip", "link", "set", dev, "up")
        self.start_service(PROFILE)
        self.otg = subprocess.Popen([LINERATE, "--socket", self.sock_path, "otg", "serve", "--listen", "127.0.0.1:0",
                                     "--http"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        server = self.otg
        self.addCleanup(lambda: server.poll() is not None or (server.send_signal(signal.SIGTERM), server.wait(30)))
        location = re.search(r"listening on (\S+:\d+)", server.stdout.readline()).group(1)
        self.api = snappi.api(location=location, verify=False)

    def rexec(self, *cmd):
        lrtest.sh("ip", "netns", "exec", self.router, *cmd)

    def router_mac(self, dev):
        out = subprocess.run(["ip", "-n", self.router, "-br", "link", "show", dev], capture_output=True, text=True,
                             check=True).stdout
        return re.search(r"([0-9a-f]{2}(?::[0-9a-f]{2}){5})", out).group(1)

    def router_neighbours(self):
        """{address: MAC} of the router's resolved neighbours."""
        out = subprocess.run(["ip", "-n", self.router, "neigh", "show"], capture_output=True, text=True,
                             check=True).stdout
        return dict(re.findall(r"^(\S+) dev r\d lladdr (\S+) (?:REACHABLE|STALE|DELAY|PROBE)", out, re.M))

    def config(self, gateway_v4=None):
        """A device per port as SONiC's fixtures write them, field for field (an ethernet with
        an IPv4 and an IPv6 address and their gateways), and a flow from port 0's to port 1's
        of each IP version: v4 named by the address objects, v6 by the devices."""
        c = self.api.config()
        for port_id in (0, 1):
            port = c.ports.port(name="Port %d" % port_id, location="p%d" % port_id)[-1]
            name = "Ethernet Port %d" % port_id
            mac, v4, v6 = HOST[name]
            _, gw4, gw6 = GATEWAY[name]
            device = c.devices.device(name="Device Port %d" % port_id)[-1]
            ethernet = device.ethernets.add()
            ethernet.name = name
            ethernet.connection.port_name = port.name
            ethernet.mac = mac
            ip_stack = ethernet.ipv4_addresses.add()
            ip_stack.name = "Ipv4 Port %d" % port_id
            ip_stack.address = v4
            ip_stack.prefix = 24
            ip_stack.gateway = gateway_v4 if gateway_v4 and port_id == 0 else gw4
            ip6_stack = ethernet.ipv6_addresses.add()
            ip6_stack.name = "Ipv6 Port %d" % port_id
            ip6_stack.address = v6
            ip6_stack.prefix = 64
            ip6_stack.gateway = gw6
        for flow, (tx_name, rx_name, ip) in {"v4": ("Ipv4 Port 0", "Ipv4 Port 1", "ipv4"),
                                             "v6": ("Device Port 0", "Device Port 1", "ipv6")}.items():
            f = c.flows.flow(name=flow)[-1]
            f.tx_rx.device.tx_names = [tx_name]
            f.tx_rx.device.rx_names = [rx_name]
            f.packet.ethernet()
            getattr(f.packet, ip)()
            f.packet.udp()[-1].dst_port.value = 7000
            f.size.fixed = 256
            f.rate.pps = 5000
            f.duration.fixed_packets.packets = 2000
            f.metrics.enable = True
        return c

    def set_config(self, config):
        """POST /config; the test skipped while the data plane emulates no hosts."""
        try:
            return self.api.set_config(config)
        except Exception as e:
            errors = list(e.args[0].errors) if e.args and hasattr(e.args[0], "errors") else [str(e)]
            if any(NO_HOSTS in error for error in errors):
                self.skipTest("the data plane emulates no hosts yet: " + "; ".join(errors))
            raise

    def protocols(self, state):
        cs = self.api.control_state()
        cs.protocol.all.state = state
        cs.choice = cs.PROTOCOL
        return self.api.set_control_state(cs)

    def transmit(self, state):
        cs = self.api.control_state()
        cs.traffic.flow_transmit.state = state
        cs.choice = cs.TRAFFIC
        return self.api.set_control_state(cs)

    def neighbours(self, version, *ethernets):
        """[(ethernet, address, MAC or None)] from /monitor/states."""
        request = self.api.states_request()
        request.choice = version + "_neighbors"
        getattr(request, version + "_neighbors").ethernet_names = list(ethernets)
        states = self.api.get_states(request)
        return [(n.ethernet_name, getattr(n, version + "_address"), n.link_layer_address)
                for n in getattr(states, version + "_neighbors")]

    def flow_metrics(self):
        request = self.api.metrics_request()
        request.flow.flow_names = []
        request.choice = request.FLOW
        return {m.name: m for m in self.api.get_metrics(request).flow_metrics}

    def gateways_resolved(self, version):
        """Waits until each host lists its gateway of `version` resolved to the router's MAC."""
        index = 1 if version == "ipv4" else 2
        want = {(name, gw[index], self.router_mac(gw[0])) for name, gw in GATEWAY.items()}
        lrtest.wait_until(lambda: want <= set(self.neighbours(version)),
                          "the hosts resolved their %s gateways" % version, timeout=15)

    def test_a_routed_device_resolves_the_hosts_and_forwards_their_flows(self):
        self.assertEqual(list(self.set_config(self.config()).warnings), [])
        self.gateways_resolved("ipv4")
        self.gateways_resolved("ipv6")
        self.assertEqual(self.neighbours("ipv4", E1), [(E1, "198.19.0.254", self.router_mac("r1"))])
        self.transmit("start")
        lrtest.wait_until(lambda: all(m.transmit == "stopped" for m in self.flow_metrics().values()),
                          "both flows sent their frames", timeout=60)
        metrics = self.flow_metrics()
        self.assertEqual({name: (m.frames_tx, m.frames_rx) for name, m in metrics.items()},
                         {"v4": (2000, 2000), "v6": (2000, 2000)})
        # The router resolved the hosts itself: each one's MAC, at each of its addresses.
        learnt = self.router_neighbours()
        for name, (mac, v4, v6) in HOST.items():
            self.assertEqual((learnt.get(v4), learnt.get(v6)), (mac, mac), (name, learnt))
        # protocol stop removes the hosts (no neighbours left); start brings them back.
        self.protocols("stop")
        self.assertEqual(self.neighbours("ipv4"), [])
        self.protocols("start")
        self.gateways_resolved("ipv4")

    def test_a_gateway_that_does_not_exist_is_refused_before_traffic(self):
        self.set_config(self.config(gateway_v4="198.18.0.253"))
        lrtest.wait_until(lambda: (E0, "198.18.0.253", None) in self.neighbours("ipv4", E0),
                          "port 0's host lists its gateway unresolved", timeout=15)
        code, errors = refusal(lambda: self.transmit("start"))
        self.assertEqual((code, errors), (400, ["stream 'v4': eth.dst 'auto': host Ethernet Port 0[0] (198.18.0.1) "
                                                "on port 'p0' has not resolved its gateway 198.18.0.253: 3 ARP "
                                                "requests unanswered"]))
        self.assertEqual({name: m.frames_tx for name, m in self.flow_metrics().items()}, {"v4": 0, "v6": 0})

    def test_what_linerate_cannot_do_is_refused_at_its_path(self):
        c = self.config()
        c.devices[0].bgp.router_id = "1.1.1.1"
        c.devices[1].ethernets[0].vlans.vlan(name="outer", id=10).vlan(name="inner", id=20)
        c.flows[0].tx_rx.device.rx_names = ["Ipv4 Port 1", "Ipv4 Port 0"]
        self.assertEqual(refusal(lambda: self.api.set_config(c)), (400, [
            "devices[0].bgp: linerate runs no BGP: its emulated hosts answer ARP, neighbour discovery and ping and "
            "resolve their gateways",
            "devices[1].ethernets[0].vlans: 2 VLANs (QinQ) are not supported by linerate: its hosts carry one 802.1Q "
            "tag",
            "flows[0].tx_rx.device.rx_names: names 2 endpoints: linerate sends a flow between one pair (write a flow "
            "per pair)"]))
        cs = self.api.control_state()
        cs.protocol.choice = cs.protocol.BGP
        cs.protocol.bgp.peers.state = "up"
        cs.choice = cs.PROTOCOL
        self.assertEqual(refusal(lambda: self.api.set_control_state(cs)), (400, [
            "protocol.choice: 'bgp' is not supported by linerate: it runs no routing or LAG protocol; all starts or "
            "stops the devices' emulated hosts"]))


if __name__ == "__main__":
    lrtest.main()
