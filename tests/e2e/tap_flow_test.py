"""rte_flow on net_tap: rules checked, created, listed, matched and destroyed on a port
whose RX queues are polled by different lcores. UDP to port 4791 (RoCEv2) is steered to
queue 1 and UDP to port 5000 to queue 0; frames sent into the tap from the kernel side
are then counted on the lcore that polls each queue, exactly.

net_tap turns rules into TC flower filters: on a kernel without flower (and multiq) the
PMD validates but cannot create them. Validation and the PMD's refusals are tested
anyway; the steering part is skipped there, saying why."""
import os
import shutil
import subprocess
import time
import unittest

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

PROFILE = """
[eal]
lcores = "0@0,1@1,2@1"
huge_pages = "off"
extra_args = ["--file-prefix", "%s"]
[run]
drain = "100ms"
[control]
socket = "%s"
[[port]]
name = "t"
device = "net_tap0,iface=lrflow0"
rx_queues = 2
tx_queues = 2
rx_lcores = [1, 2]
speed = "10G"
[[stream]]
name = "keepalive"
tx_port = "t"
frame_size = 64
rate = "1kpps"
"""

ROCE = "pattern eth / ipv4 / udp dst is 4791 actions queue index 1"
OTHER = "pattern eth / ipv4 / udp dst is 5000 actions queue index 0"

# Sends COUNT UDP/IPv4 frames to DPORT out of IFACE (into the DPDK side of the tap).
SENDER = """
import socket, struct, sys
iface, dport, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((iface, 0))
payload = bytes(18)
udp = struct.pack("!HHHH", 1024, dport, 8 + len(payload), 0) + payload
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0, bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2]))
csum = sum(struct.unpack("!10H", ip))
csum = (csum & 0xFFFF) + (csum >> 16)
ip = ip[:10] + struct.pack("!H", ~csum & 0xFFFF) + ip[12:]
frame = bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1]) + b"\\x08\\x00" + ip + udp
for _ in range(count):
    s.send(frame)
"""


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip"), "needs root and iproute2")
class TapFlow(lrtest.NetnsServiceCase):
    def setUp(self):
        super().setUp()
        self.nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        self.start_service(PROFILE)

    def error(self, method, **params):
        reply = self.client.call(method, **params)
        self.assertIn("error", reply, "%s %s should fail" % (method, params))
        return reply["error"]

    def queue_packets(self):
        """RX frames per (queue) from the lcore that polls it."""
        counts = {}
        for lcore in self.client.result("stats.lcores"):
            for q in lcore["rx_queues"]:
                counts[q["queue"]] = (lcore["lcore"], q["rx_packets"])
        return counts

    def test_rules_are_checked_refused_plainly_and_steer_to_their_queue(self):
        self.assertEqual(self.client.result("flow.validate", port="t", rule=ROCE)["valid"], True)
        check = self.cli("flow", "check", "t", *ROCE.split())
        self.assertEqual(check.returncode, 0, check.stderr)
        self.assertEqual(check.stdout, "port t: the PMD accepts the rule\n")
        # Our own checks, then the PMD's refusals with the item or action it blames.
        self.assertEqual(self.error("flow.validate", port="t", rule="pattern eth actions queue index 5")["message"],
                         "flow rule on port 't': it names RX queue 5, and the port has 2 (0-1)")
        self.assertEqual(self.error("flow.validate", port="t", rule="pattern eth / vlan pcp is 8 actions drop")["message"],
                         "params.rule: flow rule, word 7 '8': a number 0-7")
        tos = self.error("flow.validate", port="t", rule="pattern eth / ipv4 tos is 4 actions drop")
        self.assertEqual(tos["code"], -32003)
        self.assertIn("net_tap says: item not supported (item, at item 2 (ipv4))", tos["message"])
        mark = self.error("flow.validate", port="t", rule="pattern eth / ipv4 actions mark id 3")
        self.assertIn("net_tap says: action not supported (action, at action 1 (mark))", mark["message"])

        created = self.client.call("flow.create", port="t", rule=ROCE)
        if "error" in created:
            # DPDK's own message, passed on as it is.
            self.assertIn("flow rule creation on port 't': net_tap says:", created["error"]["message"])
            self.assertEqual(self.client.result("flow.list", port="t")["rules"], [])
            self.skipTest("this kernel cannot hold net_tap's TC flower rules: " + created["error"]["message"])
        roce_id = created["result"]["id"]
        other_id = self.client.result("flow.create", port="t", rule=OTHER)["id"]
        listed = self.client.result("flow.list", port="t")["rules"]
        self.assertEqual([(r["id"], r["rule"]) for r in listed], [(roce_id, ROCE), (other_id, OTHER)])

        self.client.result("traffic.start")
        before = self.queue_packets()
        for dport, count in ((4791, 200), (5000, 100)):
            subprocess.run(["ip", "netns", "exec", self.ns, "python3", "-c", SENDER, "lrflow0", str(dport), str(count)],
                           check=True)
        time.sleep(0.5)
        after = self.queue_packets()
        self.assertEqual(after[1][0], 2)  # queue 1 is lcore 2's, queue 0 lcore 1's
        self.assertEqual(after[0][0], 1)
        self.assertEqual(after[1][1] - before[1][1], 200)
        self.assertEqual(after[0][1] - before[0][1], 100)
        self.client.result("traffic.stop")

        self.client.result("flow.destroy", port="t", id=roce_id)
        self.assertEqual([r["id"] for r in self.client.result("flow.list", port="t")["rules"]], [other_id])
        self.assertEqual(self.error("flow.destroy", port="t", id=roce_id)["message"],
                         "port 't' has no flow rule %d (it has: %d)" % (roce_id, other_id))
        self.assertEqual(self.client.result("flow.flush", port="t")["destroyed"], 1)
        self.assertEqual(self.client.result("flow.list", port="t")["rules"], [])


if __name__ == "__main__":
    lrtest.main()
