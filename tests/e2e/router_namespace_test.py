"""scripts/router-namespace.sh: the routed device of the quick start (docs/guide/routed.md).

`up` makes the namespace with the router's addresses (out of DAD when it returns), IPv4 and
IPv6 forwarding on, rp_filter off, the outer ends up in the root namespace with no
address; a frame sent into lr-r0 for the other subnet leaves on lr-r1 as the router's
ARP request or neighbour solicitation for its destination (it routes). `up` twice is
refused; `down` removes everything, and with nothing left says so; not root: refused.

Usage: router_namespace_test.py [DATAPLANE CLI] (ignored: it runs the script only)
"""
import os
import shutil
import socket
import struct
import subprocess
import sys
import time
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "router-namespace.sh")
NS = "lr-rtest"
ETH_P_ALL = 0x0003


def script(*args, user=None):
    cmd = [SCRIPT, *args]
    if user is not None:
        cmd = ["setpriv", "--reuid", str(user), "--regid", str(user), "--clear-groups", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def in_ns(*cmd):
    return subprocess.run(["ip", "netns", "exec", NS, *cmd], capture_output=True, text=True, check=True).stdout


def link_exists(name):
    return subprocess.run(["ip", "link", "show", name], capture_output=True).returncode == 0


def namespaces():
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def mac_bytes(text):
    return bytes(int(b, 16) for b in text.split(":"))


def ipv4_checksum(header):
    total = sum(struct.unpack("!%dH" % (len(header) // 2), header))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def echo_frame_v4(dst_mac, src_ip, dst_ip):
    icmp = struct.pack("!BBHHH", 8, 0, 0, 1, 1) + b"linerate"
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(icmp), 1, 0, 64, 1, 0,
                         socket.inet_aton(src_ip), socket.inet_aton(dst_ip))
    header = header[:10] + struct.pack("!H", ipv4_checksum(header)) + header[12:]
    return dst_mac + mac_bytes("02:00:00:00:00:01") + b"\x08\x00" + header + icmp


def echo_frame_v6(dst_mac, src_ip, dst_ip):
    # A forwarding router does not check the ICMPv6 checksum: zero is enough to be routed.
    icmp = struct.pack("!BBHHH", 128, 0, 0, 1, 1) + b"linerate"
    header = struct.pack("!IHBB16s16s", 6 << 28, len(icmp), 58, 64, socket.inet_pton(socket.AF_INET6, src_ip),
                         socket.inet_pton(socket.AF_INET6, dst_ip))
    return dst_mac + mac_bytes("02:00:00:00:00:01") + b"\x86\xdd" + header + icmp


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip") and shutil.which("setpriv"),
                     "needs root, iproute2 and setpriv")
class RouterNamespace(unittest.TestCase):
    def setUp(self):
        if link_exists("lr-r0") or link_exists("lr-r1"):
            self.skipTest("lr-r0 / lr-r1 exist already: another router is up on this host")
        self.addCleanup(script, "down", NS)
        up = script("up", NS)
        self.assertEqual(up.returncode, 0, up.stderr)
        self.up_out = up.stdout

    def router_mac(self, dev):
        return in_ns("cat", "/sys/class/net/%s/address" % dev).strip()

    def test_up_makes_the_router_and_the_bare_outer_ends(self):
        self.assertIn(NS, namespaces())
        self.assertIn("router-namespace: up: namespace lr-rtest, forwarding IPv4 and IPv6 (rp_filter off)\n",
                      self.up_out)
        self.assertIn("lr-r0 (root namespace, up, no addresses) <-> rt0 198.18.0.254/24 2001:db8:a::fe/64 mac %s\n"
                      % self.router_mac("rt0"), self.up_out)
        self.assertIn("lr-r1 (root namespace, up, no addresses) <-> rt1 198.19.0.254/24 2001:db8:b::fe/64 mac %s\n"
                      % self.router_mac("rt1"), self.up_out)
        for dev in ("lr-r0", "lr-r1"):
            link = subprocess.run(["ip", "-o", "link", "show", dev], capture_output=True, text=True).stdout
            self.assertIn(",UP,", link)
            addrs = subprocess.run(["ip", "-o", "addr", "show", dev], capture_output=True, text=True).stdout
            self.assertEqual(addrs, "", "%s has addresses: %s" % (dev, addrs))
        for dev, v4, v6 in (("rt0", "198.18.0.254/24", "2001:db8:a::fe/64"),
                            ("rt1", "198.19.0.254/24", "2001:db8:b::fe/64")):
            self.assertEqual(in_ns("ip", "-o", "-4", "addr", "show", dev).split()[3], v4)
            global_v6 = [line.split()[3] for line in in_ns("ip", "-o", "-6", "addr", "show", dev, "scope",
                                                           "global").splitlines()]
            self.assertEqual(global_v6, [v6])
            # The router does its own duplicate address detection, finished before `up` returns.
            self.assertEqual(in_ns("sysctl", "-n", "net.ipv6.conf.%s.accept_dad" % dev).strip(), "1")
            self.assertEqual(in_ns("sysctl", "-n", "net.ipv4.conf.%s.rp_filter" % dev).strip(), "0")
        self.assertEqual(in_ns("ip", "-6", "addr", "show", "tentative"), "")
        self.assertEqual(in_ns("sysctl", "-n", "net.ipv4.ip_forward").strip(), "1")
        self.assertEqual(in_ns("sysctl", "-n", "net.ipv6.conf.all.forwarding").strip(), "1")
        self.assertEqual(in_ns("sysctl", "-n", "net.ipv4.conf.all.rp_filter").strip(), "0")

    def routed(self, frame, leaves):
        """Sends `frame` into lr-r0; whether a frame for which `leaves` holds comes out of
        lr-r1 within 3 s."""
        with socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL)) as rx, \
                socket.socket(socket.AF_PACKET, socket.SOCK_RAW) as tx:
            rx.bind(("lr-r1", 0))
            rx.settimeout(0.2)
            tx.bind(("lr-r0", 0))
            tx.send(frame)
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                try:
                    if leaves(rx.recv(2048)):
                        return True
                except socket.timeout:
                    pass
        return False

    def test_it_routes_ipv4_between_the_subnets(self):
        frame = echo_frame_v4(mac_bytes(self.router_mac("rt0")), "198.18.0.1", "198.19.0.1")
        # The router resolving its next hop: ARP request, sender rt1 198.19.0.254, target 198.19.0.1.
        request = b"\x08\x06" + struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + mac_bytes(self.router_mac("rt1")) + \
            socket.inet_aton("198.19.0.254") + bytes(6) + socket.inet_aton("198.19.0.1")
        self.assertTrue(self.routed(frame, lambda f: f[12:42] == request),
                        "no ARP request for 198.19.0.1 left lr-r1")

    def test_it_routes_ipv6_between_the_subnets(self):
        frame = echo_frame_v6(mac_bytes(self.router_mac("rt0")), "2001:db8:a::1", "2001:db8:b::1")
        target = socket.inet_pton(socket.AF_INET6, "2001:db8:b::1")

        def solicits_destination(f):  # IPv6, ICMPv6 neighbour solicitation, its target
            return f[12:14] == b"\x86\xdd" and f[20] == 58 and f[54] == 135 and f[62:78] == target

        self.assertTrue(self.routed(frame, solicits_destination),
                        "no neighbour solicitation for 2001:db8:b::1 left lr-r1")

    def test_up_twice_is_refused_and_down_removes_everything(self):
        again = script("up", NS)
        self.assertEqual(again.returncode, 1)
        self.assertEqual(again.stderr, "router-namespace: namespace lr-rtest exists already: '%s down lr-rtest' first\n"
                         % SCRIPT)
        self.assertIn(NS, namespaces())
        down = script("down", NS)
        self.assertEqual(down.returncode, 0, down.stderr)
        self.assertEqual(down.stdout, "router-namespace: removed lr-r0 lr-r1 namespace lr-rtest\n")
        self.assertNotIn(NS, namespaces())
        self.assertFalse(link_exists("lr-r0") or link_exists("lr-r1"))
        down = script("down", NS)
        self.assertEqual(down.returncode, 0, down.stderr)
        self.assertEqual(down.stdout, "router-namespace: nothing to remove (no namespace lr-rtest, no lr-r0 lr-r1)\n")

    def test_not_root_is_refused_with_the_reason(self):
        refused = script("up", "lr-rtest-user", user=65534)
        self.assertEqual(refused.returncode, 1)
        self.assertEqual(refused.stderr, "router-namespace: run it as root: it makes a network namespace and veth links\n")
        self.assertNotIn("lr-rtest-user", namespaces())


if __name__ == "__main__":
    sys.argv = sys.argv[:1] + [a for a in sys.argv[1:] if a.startswith("-")]
    unittest.main(verbosity=2)
