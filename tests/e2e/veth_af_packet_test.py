"""A kernel link as the device under test: af_packet ports on two veth pairs joined by
a Linux bridge in a network namespace this test makes and removes. nftables on the
bridge drops and duplicates chosen frames and counts them; linerate's per-stream
loss and duplicate counts must agree with those independent counts exactly.

    [linerate port a] lra ==veth== bra --\\
                                          br0 (nft: drop udp.src 1024, count forwarded)
    [linerate port b] lrb ==veth== brb --/      bra ingress: dup udp.src 1029 to brb
"""
import json
import os
import shutil
import subprocess
import unittest

import lrtest

NFT_RULES = """
table bridge lr_switch {
  counter dropped {}
  counter forwarded {}
  chain forward {
    type filter hook forward priority 0; policy accept;
    udp sport 1024 udp dport 7 counter name "dropped" drop
    udp dport 7 counter name "forwarded"
  }
}
table netdev lr_dup {
  counter duplicated {}
  chain ingress {
    type filter hook ingress device "bra" priority 0; policy accept;
    udp sport 1029 udp dport 7 counter name "duplicated" dup to "brb"
  }
}
"""


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("ip") and shutil.which("nft"),
                     "needs root, iproute2 and nftables")
class VethBridge(lrtest.NetnsCase):
    def setUp(self):
        super().setUp()
        self.make_bridged_veths()
        subprocess.run(["ip", "netns", "exec", self.ns, "nft", "-f", "-"], input=NFT_RULES, check=True, text=True)

    def nft_counter(self, family, table, name):
        out = subprocess.run(["ip", "netns", "exec", self.ns, "nft", "-j", "list", "counter", family, table, name],
                             check=True, capture_output=True, text=True).stdout
        for item in json.loads(out)["nftables"]:
            if "counter" in item:
                return item["counter"]["packets"]
        self.fail("no counter %s" % name)

    def test_loss_and_duplicates_match_the_bridge_counts(self):
        frames = 20000
        proc, report = self.run_in_netns("""
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "300ms"
[[port]]
name = "a"
device = "net_af_packet0,iface=lra"
speed = "1G"
[[port]]
name = "b"
device = "net_af_packet1,iface=lrb"
speed = "1G"
[[stream]]
name = "a-to-b"
tx_port = "a"
rx_port = "b"
frame_size = 128
rate = "20kpps"
count = %d
ipv4 = { src = "198.18.0.1", dst = "198.19.0.1" }
udp = { src = 1024, dst = 7 }
vary = [ { field = "udp.src", count = 10 } ]
""" % frames)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        dropped = self.nft_counter("bridge", "lr_switch", "dropped")
        forwarded = self.nft_counter("bridge", "lr_switch", "forwarded")
        duplicated = self.nft_counter("netdev", "lr_dup", "duplicated")
        # udp.src cycles 1024..1033: a tenth of the frames are dropped, another tenth copied.
        self.assertEqual(dropped, frames // 10)
        self.assertEqual(duplicated, frames // 10)
        self.assertEqual(dropped + forwarded, frames)
        s = self.stream(report, "a-to-b")
        self.assertEqual(s["tx_packets"], frames)
        self.assertEqual(s["lost"], dropped)
        self.assertEqual(s["duplicate"], duplicated)
        self.assertEqual(s["rx_packets"], forwarded + duplicated)
        self.assertEqual(report["mbufs_not_returned"], 0)


if __name__ == "__main__":
    lrtest.main()
