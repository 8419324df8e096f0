"""Checksums verified by the Linux stack: frames go out of a net_tap port into the
kernel, which checks every IPv4 header and UDP checksum (IPv4 and IPv6) and counts
good datagrams (NoPorts: no listener) and bad ones (InCsumErrors) per namespace.
Run once with the TX checksum offload (net_tap offers it and computes it from the
mbuf's offload flags and lengths) and once with linerate's own software checksums."""
import os
import shutil
import subprocess
import unittest

import lrtest

FRAMES = 500


def snmp(ns, path):
    """{'Udp.NoPorts': n, ...} from /proc/net/snmp (header/value line pairs) or snmp6."""
    text = subprocess.run(["ip", "netns", "exec", ns, "cat", path], check=True, capture_output=True,
                          text=True).stdout
    values = {}
    lines = text.strip().split("\n")
    if path.endswith("snmp6"):
        for line in lines:
            key, value = line.split()
            values[key] = int(value)
        return values
    for header, row in zip(lines[::2], lines[1::2]):
        proto = header.split(":")[0]
        for key, value in zip(header.split()[1:], row.split()[1:]):
            values[proto + "." + key] = int(value)
    return values


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip"), "needs root and iproute2")
class TapChecksums(lrtest.NetnsCase):
    def setUp(self):
        super().setUp()
        # A persistent multi-queue tap that net_tap attaches to, addressed before traffic.
        for cmd in (["ip", "tuntap", "add", "dev", "lrtap0", "mode", "tap", "multi_queue"],
                    ["ip", "link", "set", "lrtap0", "up"],
                    ["ip", "addr", "add", "198.19.0.1/24", "dev", "lrtap0"],
                    ["ip", "addr", "add", "2001:200::2/64", "dev", "lrtap0", "nodad"],
                    ["ip", "route", "add", "198.18.0.0/24", "dev", "lrtap0"],
                    ["sysctl", "-qw", "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.lrtap0.rp_filter=0"]):
            self.nsexec(*cmd)

    def run_to_kernel(self, offload):
        before4, before6 = snmp(self.ns, "/proc/net/snmp"), snmp(self.ns, "/proc/net/snmp6")
        proc, report = self.run_in_netns("""
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "200ms"
[[port]]
name = "tap"
device = "net_tap0,iface=lrtap0"
speed = "10G"
checksum_offload = %s
[[stream]]
name = "v4"
tx_port = "tap"
frame_size = [64, 333, 1000]
rate = "20kpps"
count = %d
eth = { dst = "ff:ff:ff:ff:ff:ff" }
vlan = { id = 0, pcp = 0 }
ipv4 = { src = "198.18.0.1", dst = "198.19.0.1", dscp = 10 }
udp = { src = 1024, dst = 7 }
vary = [ { field = "udp.src", op = "random", count = 5000 }, { field = "ipv4.src", count = 200 } ]
[[stream]]
name = "v6"
tx_port = "tap"
frame_size = { min = 90, max = 200 }
rate = "20kpps"
count = %d
eth = { dst = "ff:ff:ff:ff:ff:ff" }
ipv6 = { src = "2001:200::1", dst = "2001:200::2" }
udp = { src = 1024, dst = 7 }
vary = [ { field = "ipv6.src", op = "random", count = 1000 } ]
""" % ("true" if offload else "false", FRAMES, FRAMES))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("checksums in %s" % ("hardware" if offload else "software"), proc.stdout)
        self.assertEqual(report["streams"][0]["tx_packets"], FRAMES)
        self.assertEqual(report["streams"][1]["tx_packets"], FRAMES)
        after4, after6 = snmp(self.ns, "/proc/net/snmp"), snmp(self.ns, "/proc/net/snmp6")
        delta4 = {k: after4[k] - before4.get(k, 0) for k in after4}
        delta6 = {k: after6[k] - before6.get(k, 0) for k in after6}
        self.assertEqual(delta4["Ip.InHdrErrors"], 0, "IPv4 header checksums")
        self.assertEqual(delta4["Udp.InCsumErrors"], 0, "UDP over IPv4 checksums")
        self.assertEqual(delta4["Udp.NoPorts"], FRAMES, "every IPv4 datagram reached UDP intact")
        self.assertEqual(delta6["Udp6InCsumErrors"], 0, "UDP over IPv6 checksums")
        self.assertEqual(delta6["Udp6NoPorts"], FRAMES, "every IPv6 datagram reached UDP intact")

    def test_hardware_checksum_offload(self):
        self.run_to_kernel(offload=True)

    def test_software_checksums(self):
        self.run_to_kernel(offload=False)


if __name__ == "__main__":
    lrtest.main()
