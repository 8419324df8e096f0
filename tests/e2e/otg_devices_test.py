"""linerate otg serve with OTG devices, driven as SONiC's snappi fixtures drive a tester (their
devices written field for field): an ethernet per port with an IPv4 and an IPv6 address and
their gateways, and flows between them (tx_rx.device) whose destination MAC is auto.

The client is the real snappi (1.60.0, built by shared/tools/snappi-from-mirror; its folder in
LR_SNAPPI or on the Python path) where it imports (class OtgDevicesThroughSnappi); elsewhere,
as in CI, the same requests go over plain HTTP with Python's standard library
(OtgDevicesThroughRawHttp), their bodies the ones snappi serialized, recorded in
tests/e2e/otg_devices/ (`LR_SNAPPI=... python3 tests/e2e/otg_devices_test.py --record-bodies`
writes them again). The snappi run checks each body it sends against its recording, so the
two runs send the same JSON text (snappi's serialize(): indent 2, keys sorted) and assert the
same values.

The routed device is a network namespace this test makes, the kernel forwarding between two
veth subnets and resolving with its own ARP and neighbour discovery (an independent
implementation):

    [linerate p0] lr0 ==veth== r0 198.18.0.254/24 2001:db8:a::fe/64 \\  namespace ROUTER,
    [linerate p1] lr1 ==veth== r1 198.19.0.254/24 2001:db8:b::fe/64 /   ip_forward on

Checked: the hosts resolve their gateways (/monitor/states shows the router's MACs), flows
of IPv4 and IPv6 go through the router with no static entry anywhere and arrive whole, the
router learns the hosts (its `ip neigh`), protocol stop removes the hosts and start brings
them back; a gateway that does not exist is refused before traffic, naming host and
gateway; what linerate cannot do is refused at its path. Until the data plane serves
device.load, the tests that need it are skipped, saying so."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import types
import unittest
import urllib.error
import urllib.request

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
ABSENT_GATEWAY = "198.18.0.253"  # in port 0's subnet; nothing answers it


def snappi_config(api, gateway_v4=None):
    """A device per port as SONiC's fixtures write them, field for field (an ethernet with
    an IPv4 and an IPv6 address and their gateways), and a flow from port 0's to port 1's
    of each IP version: v4 named by the address objects, v6 by the devices."""
    c = api.config()
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


def snappi_config_unsupported(api):
    """The config with what linerate cannot do: BGP, QinQ, a flow to two endpoints."""
    c = snappi_config(api)
    c.devices[0].bgp.router_id = "1.1.1.1"
    c.devices[1].ethernets[0].vlans.vlan(name="outer", id=10).vlan(name="inner", id=20)
    c.flows[0].tx_rx.device.rx_names = ["Ipv4 Port 1", "Ipv4 Port 0"]
    return c


def snappi_protocols(api, state):
    cs = api.control_state()
    cs.protocol.all.state = state
    cs.choice = cs.PROTOCOL
    return cs


def snappi_transmit(api, state):
    cs = api.control_state()
    cs.traffic.flow_transmit.state = state
    cs.choice = cs.TRAFFIC
    return cs


def snappi_bgp_peers(api, state):
    cs = api.control_state()
    cs.protocol.choice = cs.protocol.BGP
    cs.protocol.bgp.peers.state = state
    cs.choice = cs.PROTOCOL
    return cs


def snappi_neighbours_request(api, version, ethernets):
    request = api.states_request()
    request.choice = version + "_neighbors"
    getattr(request, version + "_neighbors").ethernet_names = list(ethernets)
    return request


def snappi_flow_metrics_request(api):
    request = api.metrics_request()
    request.flow.flow_names = []
    request.choice = request.FLOW
    return request


def neighbours_request(version, ethernets=()):
    """The name of a /monitor/states request for the neighbours of `version`."""
    return version + "_neighbors" + (" of " + ", ".join(ethernets) if ethernets else "")


# Every request the tests send, by name: its path, and how snappi builds its body.
REQUESTS = {
    "config": ("/config", snappi_config),
    "config absent gateway": ("/config", lambda api: snappi_config(api, gateway_v4=ABSENT_GATEWAY)),
    "config unsupported": ("/config", snappi_config_unsupported),
    "protocol stop": ("/control/state", lambda api: snappi_protocols(api, "stop")),
    "protocol start": ("/control/state", lambda api: snappi_protocols(api, "start")),
    "transmit start": ("/control/state", lambda api: snappi_transmit(api, "start")),
    "bgp peers up": ("/control/state", lambda api: snappi_bgp_peers(api, "up")),
    "flow metrics": ("/monitor/metrics", snappi_flow_metrics_request),
}
for _version, _ethernets in (("ipv4", ()), ("ipv6", ()), ("ipv4", (E0,)), ("ipv4", (E1,))):
    REQUESTS[neighbours_request(_version, _ethernets)] = (
        "/monitor/states", lambda api, v=_version, e=_ethernets: snappi_neighbours_request(api, v, e))

# The recorded bodies: a file per config, the smaller requests together.
BODIES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "otg_devices")
CONFIG_FILES = {"config": "config.json", "config absent gateway": "config_absent_gateway.json",
                "config unsupported": "config_unsupported.json"}
REQUESTS_FILE = "requests.json"


def recorded_bodies():
    """{request name: body} as snappi serialized them, from BODIES_DIR."""
    bodies = {}
    for name, file in CONFIG_FILES.items():
        with open(os.path.join(BODIES_DIR, file)) as f:
            bodies[name] = json.load(f)
    with open(os.path.join(BODIES_DIR, REQUESTS_FILE)) as f:
        bodies.update(json.load(f))
    if set(bodies) != set(REQUESTS):
        raise AssertionError("%s records %s; the tests send %s" % (BODIES_DIR, sorted(bodies), sorted(REQUESTS)))
    return bodies


def record_bodies():
    """Writes every request's body as snappi serializes it (.serialize(), as a dict) into BODIES_DIR."""
    api = snappi.api(verify=False)
    bodies = {}
    for name, (_, build) in REQUESTS.items():
        request = build(api)
        bodies[name] = request.serialize(request.DICT)

    def write(file, value):
        with open(os.path.join(BODIES_DIR, file), "w") as f:
            f.write(json.dumps(value, indent=2, sort_keys=True) + "\n")
    os.makedirs(BODIES_DIR, exist_ok=True)
    for name, file in CONFIG_FILES.items():
        write(file, bodies.pop(name))
    write(REQUESTS_FILE, bodies)


def first_difference(sent, recorded, path="body"):
    """Where two JSON values first differ, and how: "path: snappi X, recorded Y"."""
    if isinstance(sent, dict) and isinstance(recorded, dict):
        for key in sorted(set(sent) | set(recorded)):
            if key not in sent or key not in recorded:
                return "%s.%s: %s" % (path, key, "only recorded" if key in recorded else "only snappi's")
            if sent[key] != recorded[key]:
                return first_difference(sent[key], recorded[key], "%s.%s" % (path, key))
    if isinstance(sent, list) and isinstance(recorded, list) and len(sent) == len(recorded):
        for i, (a, b) in enumerate(zip(sent, recorded)):
            if a != b:
                return first_difference(a, b, "%s[%d]" % (path, i))
    return "%s: snappi %s, recorded %s" % (path, json.dumps(sent), json.dumps(recorded))


class OtgError(Exception):
    """A refusal as snappi reports it: the OTG Error's code and errors."""

    def __init__(self, code, errors):
        super().__init__(code, errors)
        self.code, self.errors = code, errors


class SnappiClient:
    """The real client: each request built with snappi's objects, its body checked against
    its recording (what the raw HTTP client sends), then sent by snappi."""

    def __init__(self, location, bodies):
        self.api = snappi.api(location=location, verify=False)
        self.bodies = bodies
        self.send = {"/config": self.api.set_config, "/control/state": self.api.set_control_state,
                     "/monitor/states": self.api.get_states, "/monitor/metrics": self.api.get_metrics}

    @staticmethod
    def label():
        return "snappi " + snappi.api(verify=False).get_local_version().sdk_version

    def post(self, name):
        path, build = REQUESTS[name]
        request = build(self.api)
        body = request.serialize(request.DICT)
        if body != self.bodies[name]:
            raise AssertionError("snappi's body of '%s' is not its recording in %s (write them again with "
                                 "--record-bodies): %s" % (name, BODIES_DIR, first_difference(body, self.bodies[name])))
        try:
            return self.send[path](request)
        except Exception as e:  # snappi raises Exception(Error)
            error = e.args[0] if e.args else None
            if hasattr(error, "errors"):
                raise OtgError(error.code, list(error.errors)) from e
            raise


class RawHttpClient:
    """Python's standard library sending the recorded bodies as snappi writes them
    (json.dumps, indent 2, keys sorted); replies read as snappi reads them: a JSON body,
    its fields as attributes; an error's code and errors from its body."""

    def __init__(self, location, bodies):
        self.location = location
        self.bodies = bodies
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # straight to 127.0.0.1

    @staticmethod
    def label():
        return "raw HTTP (snappi's serialized bodies)"

    def post(self, name):
        path, _ = REQUESTS[name]
        request = urllib.request.Request(self.location + path, method="POST",
                                         data=json.dumps(self.bodies[name], indent=2, sort_keys=True).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with self.opener.open(request, timeout=30) as reply:
                return self.read(reply)
        except urllib.error.HTTPError as e:
            error = self.read(e)
            if error.code != e.code:
                raise AssertionError("%s: HTTP status %d, the error's code %d" % (path, e.code, error.code)) from None
            raise OtgError(error.code, list(error.errors)) from None

    @staticmethod
    def read(reply):
        if "application/json" not in reply.headers["Content-Type"]:
            raise AssertionError("a reply of Content-Type %s" % reply.headers["Content-Type"])
        return json.loads(reply.read(), object_hook=lambda fields: types.SimpleNamespace(**fields))


def refusal(call):
    """The code and errors of the OTG error `call` was refused with."""
    try:
        call()
    except OtgError as e:
        return e.code, e.errors
    raise AssertionError("not refused")


class OtgDevices:
    """The tests, whichever client drives them: the classes below give `otg_client`."""
    otg_client = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        print("client: " + cls.otg_client.label(), file=sys.stderr, flush=True)

    def setUp(self):
        super().setUp()
        self.make_router([(ours, dev, v4 + "/24", v6 + "/64")
                          for ours, (dev, v4, v6) in zip(("lr0", "lr1"), GATEWAY.values())])
        self.start_service(PROFILE)
        self.otg = subprocess.Popen([LINERATE, "--socket", self.sock_path, "otg", "serve", "--listen", "127.0.0.1:0",
                                     "--http"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        server = self.otg
        self.addCleanup(lambda: server.poll() is not None or (server.send_signal(signal.SIGTERM), server.wait(30)))
        location = re.search(r"listening on (\S+:\d+)", server.stdout.readline()).group(1)
        self.api = self.otg_client(location, recorded_bodies())

    def router_neighbours(self):
        """{address: MAC} of the router's resolved neighbours."""
        out = subprocess.run(["ip", "-n", self.router, "neigh", "show"], capture_output=True, text=True,
                             check=True).stdout
        return dict(re.findall(r"^(\S+) dev r\d lladdr (\S+) (?:REACHABLE|STALE|DELAY|PROBE)", out, re.M))

    def set_config(self, name):
        """POST /config; the test skipped while the data plane emulates no hosts."""
        try:
            return self.api.post(name)
        except OtgError as e:
            if any(NO_HOSTS in error for error in e.errors):
                self.skipTest("the data plane emulates no hosts yet: " + "; ".join(e.errors))
            raise

    def neighbours(self, version, *ethernets):
        """[(ethernet, address, MAC or None)] from /monitor/states."""
        states = self.api.post(neighbours_request(version, ethernets))
        return [(n.ethernet_name, getattr(n, version + "_address"), getattr(n, "link_layer_address", None))
                for n in getattr(states, version + "_neighbors")]

    def flow_metrics(self):
        return {m.name: m for m in self.api.post("flow metrics").flow_metrics}

    def gateways_resolved(self, version):
        """Waits until each host lists its gateway of `version` resolved to the router's MAC."""
        index = 1 if version == "ipv4" else 2
        want = {(name, gw[index], self.link_mac(gw[0])) for name, gw in GATEWAY.items()}
        lrtest.wait_until(lambda: want <= set(self.neighbours(version)),
                          "the hosts resolved their %s gateways" % version, timeout=15)

    def test_a_routed_device_resolves_the_hosts_and_forwards_their_flows(self):
        self.assertEqual(list(self.set_config("config").warnings), [])
        self.gateways_resolved("ipv4")
        self.gateways_resolved("ipv6")
        self.assertEqual(self.neighbours("ipv4", E1), [(E1, "198.19.0.254", self.link_mac("r1"))])
        self.assertEqual(list(self.api.post("transmit start").warnings), [])
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
        self.assertEqual(list(self.api.post("protocol stop").warnings), [])
        self.assertEqual(self.neighbours("ipv4"), [])
        self.assertEqual(list(self.api.post("protocol start").warnings), [])
        self.gateways_resolved("ipv4")

    def test_a_gateway_that_does_not_exist_is_refused_before_traffic(self):
        self.set_config("config absent gateway")
        lrtest.wait_until(lambda: (E0, ABSENT_GATEWAY, None) in self.neighbours("ipv4", E0),
                          "port 0's host lists its gateway unresolved", timeout=15)
        code, errors = refusal(lambda: self.api.post("transmit start"))
        self.assertEqual((code, errors), (400, ["stream 'v4': eth.dst 'auto': host Ethernet Port 0[0] (198.18.0.1) "
                                                "on port 'p0' has not resolved its gateway 198.18.0.253: 3 ARP "
                                                "requests unanswered"]))
        self.assertEqual({name: m.frames_tx for name, m in self.flow_metrics().items()}, {"v4": 0, "v6": 0})

    def test_what_linerate_cannot_do_is_refused_at_its_path(self):
        self.assertEqual(refusal(lambda: self.api.post("config unsupported")), (400, [
            "devices[0].bgp: linerate runs no BGP: its emulated hosts answer ARP, neighbour discovery and ping and "
            "resolve their gateways",
            "devices[1].ethernets[0].vlans: 2 VLANs (QinQ) are not supported by linerate: its hosts carry one 802.1Q "
            "tag",
            "flows[0].tx_rx.device.rx_names: names 2 endpoints: linerate sends a flow between one pair (write a flow "
            "per pair)"]))
        self.assertEqual(refusal(lambda: self.api.post("bgp peers up")), (400, [
            "protocol.choice: 'bgp' is not supported by linerate: it runs no routing or LAG protocol; all starts or "
            "stops the devices' emulated hosts"]))


# One class runs, named after its client: snappi where it imports, else the raw HTTP client.
NEEDS_ROOT = unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip"), "needs root and iproute2")
if snappi is not None:
    @NEEDS_ROOT
    class OtgDevicesThroughSnappi(OtgDevices, lrtest.RouterCase):
        otg_client = SnappiClient
else:
    @NEEDS_ROOT
    class OtgDevicesThroughRawHttp(OtgDevices, lrtest.RouterCase):
        otg_client = RawHttpClient


if __name__ == "__main__":
    if sys.argv[1:] == ["--record-bodies"]:
        if snappi is None:
            sys.exit("--record-bodies needs snappi: give its folder in LR_SNAPPI")
        record_bodies()
    else:
        lrtest.main()
