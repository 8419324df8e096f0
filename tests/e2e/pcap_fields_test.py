"""Frames written by net_pcap, dissected by tshark and checked field by field."""
import os
import shutil
import struct
import subprocess
import sys
import unittest
import zlib

import lrtest

FIELDS = ["frame.len", "eth.src", "eth.dst", "vlan.id", "vlan.priority", "ip.dsfield.dscp", "ip.dsfield.ecn",
          "ip.ttl", "ip.flags.df", "ip.len", "ip.src", "ip.dst", "ip.checksum.status", "udp.srcport", "udp.dstport",
          "udp.length", "udp.checksum.status"]


@unittest.skipUnless(shutil.which("tshark"), "tshark is not installed")
class PcapFields(lrtest.DataplaneCase):
    def capture(self, stream_toml, count):
        pcap = os.path.join(self.dir, "tx.pcap")
        proc, report = self.run_dataplane("""
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "50ms"
[[port]]
name = "cap"
device = "net_pcap0,tx_pcap=%s"
rx_queues = 0
speed = "10G"
%s""" % (pcap, stream_toml))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(report["streams"][0]["tx_packets"], count)
        out = subprocess.run(
            ["tshark", "-r", pcap, "--disable-protocol", "infiniband", "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE", "-T", "fields",
             "-E", "separator=|", "-E", "occurrence=f"] + sum([["-e", f] for f in FIELDS], []),
            capture_output=True, text=True, check=True).stdout
        rows = [dict(zip(FIELDS, line.split("|"))) for line in out.strip().split("\n")]
        self.assertEqual(len(rows), count)
        for row, raw in zip(rows, lrtest.read_pcap(pcap)):
            row["raw"] = raw
        return rows

    def check_signature(self, row, stream_id, seq, header_bytes):
        payload = row["raw"][header_bytes:]
        magic, sid, lane, s, _ts, check = struct.unpack("<HHBIIB", payload[-14:])
        self.assertEqual(magic, 0x4C52)
        self.assertEqual(sid, stream_id)
        self.assertEqual(lane, 0)
        self.assertEqual(s, seq)
        self.assertEqual(check, (sum(payload[-14:-1]) & 0xFF) ^ 0xA5)
        self.assertEqual(payload[:-14], bytes(len(payload) - 14), "payload before the signature is zero")

    def test_vlan_ipv4_imix_with_varying_fields(self):
        rows = self.capture("""
[[stream]]
name = "varying"
tx_port = "cap"
frame_size = [64, 128, 1518]
rate = "20kpps"
count = 30
eth = { src = "02:00:00:00:00:0a", dst = "02:00:00:00:00:0b" }
vlan = { id = 100, pcp = 5 }
ipv4 = { src = "198.18.0.1", dst = "198.19.0.1", dscp = 46, ecn = 1, ttl = 32 }
udp = { src = 1024, dst = 4791 }
vary = [ { field = "ipv4.src", count = 4 }, { field = "udp.dst", op = "decrement", count = 3 },
         { field = "vlan.id", count = 2, step = 10 } ]
""", 30)
        for seq, row in enumerate(rows):
            frame = (64, 128, 1518)[seq % 3]
            self.assertEqual(int(row["frame.len"]), frame - 4, "pcap holds the frame without FCS")
            self.assertEqual(row["eth.src"], "02:00:00:00:00:0a")
            self.assertEqual(row["eth.dst"], "02:00:00:00:00:0b")
            self.assertEqual(int(row["vlan.id"]), 100 + (seq % 2) * 10)
            self.assertEqual(int(row["vlan.priority"]), 5)
            self.assertEqual(int(row["ip.dsfield.dscp"]), 46)
            self.assertEqual(int(row["ip.dsfield.ecn"]), 1)
            self.assertEqual(int(row["ip.ttl"]), 32)
            self.assertEqual(int(row["ip.flags.df"]), 1)
            self.assertEqual(int(row["ip.len"]), frame - 4 - 18)
            self.assertEqual(row["ip.src"], "198.18.0.%d" % (1 + seq % 4))
            self.assertEqual(row["ip.dst"], "198.19.0.1")
            self.assertEqual(row["ip.checksum.status"], "1", "IPv4 header checksum is good")
            self.assertEqual(int(row["udp.srcport"]), 1024)
            self.assertEqual(int(row["udp.dstport"]), 4791 - seq % 3)
            self.assertEqual(int(row["udp.length"]), frame - 4 - 18 - 20)
            self.assertEqual(row["udp.checksum.status"], "1", "UDP checksum is good")
            self.check_signature(row, 0, seq, 14 + 4 + 20 + 8)
        # `linerate frames` shows exactly these frames before anything is sent: byte for byte,
        # but for the TX timestamp (written at send time), the check byte over it and the UDP
        # checksum, which covers it.
        preview = subprocess.run([sys.modules["__main__"].LINERATE, "frames", os.path.join(self.dir, "profile.toml"),
                                  "--stream", "varying", "--count", "30", "--hex"], capture_output=True, text=True)
        self.assertEqual(preview.returncode, 0, preview.stderr)
        lines = preview.stdout.strip().split("\n")
        self.assertEqual(len(lines), 30)
        for seq, (line, row) in enumerate(zip(lines, rows)):
            name, lane, shown_seq, hex_bytes = line.split(" ")
            self.assertEqual((name, lane, int(shown_seq)), ("varying", "0", seq))
            shown = bytes.fromhex(hex_bytes)
            self.assertEqual(len(shown), len(row["raw"]))
            udp_checksum = slice(14 + 4 + 20 + 6, 14 + 4 + 20 + 8)
            masked = lambda frame: frame[:udp_checksum.start] + frame[udp_checksum.stop:-6]
            self.assertEqual(masked(shown), masked(row["raw"]), "frame %d" % seq)
        missing = subprocess.run([sys.modules["__main__"].LINERATE, "frames", os.path.join(self.dir, "profile.toml"),
                                  "--stream", "nope"], capture_output=True, text=True)
        self.assertEqual((missing.returncode, missing.stderr),
                         (2, "linerate: %s has no stream 'nope' (it has: varying)\n" % os.path.join(self.dir, "profile.toml")))

    def test_one_size_with_varying_fields_in_full_bursts(self):
        # One size: each mbuf holds its whole frame from the pool's filling, and per frame only
        # the varied fields, the IPv4 checksum, the signature and the UDP checksum are written,
        # a burst at a time (rate max: bursts of 32, each mbuf reused with another frame's fields).
        rows = self.capture("""
[[stream]]
name = "varied"
tx_port = "cap"
frame_size = 64
rate = "max"
count = 300
eth = { src = "02:00:00:00:00:0a", dst = "02:00:00:00:00:0b" }
vlan = { id = 100, pcp = 5 }
ipv4 = { src = "198.18.0.1", dst = "198.19.0.1" }
udp = { src = 1024, dst = 4791 }
vary = [ { field = "ipv4.src", count = 7 }, { field = "udp.src", count = 1000, step = 3 },
         { field = "vlan.id", count = 2, step = 10 }, { field = "eth.dst", count = 5 } ]
""", 300)
        for seq, row in enumerate(rows):
            self.assertEqual(int(row["frame.len"]), 60)
            self.assertEqual(row["eth.dst"], "02:00:00:00:00:%02x" % (0x0b + seq % 5))
            self.assertEqual(int(row["vlan.id"]), 100 + (seq % 2) * 10)
            self.assertEqual(int(row["vlan.priority"]), 5)
            self.assertEqual(row["ip.src"], "198.18.0.%d" % (1 + seq % 7))
            self.assertEqual(row["ip.checksum.status"], "1", "IPv4 header checksum is good, frame %d" % seq)
            self.assertEqual(int(row["udp.srcport"]), 1024 + 3 * seq)
            self.assertEqual(int(row["udp.dstport"]), 4791)
            self.assertEqual(row["udp.checksum.status"], "1", "UDP checksum is good, frame %d" % seq)
            self.check_signature(row, 0, seq, 14 + 4 + 20 + 8)

    def test_ipv6_range_with_odd_lengths(self):
        rows = self.capture("""
[[stream]]
name = "v6"
tx_port = "cap"
frame_size = { min = 95, max = 101, order = "increment" }
rate = "20kpps"
count = 14
ipv6 = { src = "2001:200::1", dst = "2001:200::ff", dscp = 10 }
udp = { src = 5000, dst = 5001 }
vary = [ { field = "ipv6.dst", count = 5, step = 256 } ]
""", 14)
        for seq, row in enumerate(rows):
            self.assertEqual(int(row["frame.len"]), 91 + seq % 7)
            self.assertEqual(int(row["udp.length"]), 91 + seq % 7 - 14 - 40)
            self.assertEqual(row["udp.checksum.status"], "1")
            self.check_signature(row, 0, seq, 14 + 40 + 8)
        dsts = [row.get("ip.dst") for row in rows]
        self.assertTrue(all(d == "" for d in dsts))  # IPv6: no ip.* fields
        out = subprocess.run(["tshark", "-r", os.path.join(self.dir, "tx.pcap"), "-T", "fields", "-e", "ipv6.dst",
                              "-e", "ipv6.tclass.dscp"], capture_output=True, text=True, check=True).stdout.split("\n")
        for seq in range(14):
            dst, dscp = out[seq].split("\t")
            self.assertEqual(dst, "2001:200::%x" % (0xff + (seq % 5) * 256))
            self.assertEqual(int(dscp), 10)

    def sent_as_previewed(self, streams, tx_buffers, plan_line):
        """Sends `streams` ({name: (keys, count, UDP header offset)}) at rate max (bursts of 32)
        with [run] tx_buffers = `tx_buffers` into a pcap, and checks that the plan says
        `plan_line`, that every IPv4 and UDP checksum is good (tshark) and that each stream's
        frames are, byte for byte, those `linerate frames` shows (but for the TX timestamp, the
        check byte over it and the UDP checksum, which covers it)."""
        pcap = os.path.join(self.dir, "frames.pcap")
        text = """
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "50ms"
tx_buffers = "%s"
[[port]]
name = "cap"
device = "net_pcap0,tx_pcap=%s"
rx_queues = 0
speed = "10G"
""" % (tx_buffers, pcap)
        for name, (keys, count, _l4) in streams.items():
            text += '[[stream]]\nname = "%s"\ntx_port = "cap"\nrate = "max"\ncount = %d\n%s\n' % (name, count, keys)
        proc, report = self.run_dataplane(text)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(plan_line, proc.stdout)
        self.assertEqual([s["tx_packets"] for s in report["streams"]], [c for _k, c, _l in streams.values()])
        status = subprocess.run(["tshark", "-r", pcap, "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
                                 "-T", "fields", "-e", "ip.checksum.status", "-e", "udp.checksum.status"],
                                capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
        self.assertEqual(set(line.strip() for line in status), {"1\t1", "1"})  # good (IPv6: no IPv4 field)
        sent = {}
        for raw in lrtest.read_pcap(pcap):
            magic, sid, _lane, seq = struct.unpack("<HHBI", raw[-14:-5])
            self.assertEqual(magic, 0x4C52)
            sent.setdefault(sid, []).append((seq, raw))
        for sid, (name, (_keys, count, l4)) in enumerate(streams.items()):
            frames = sent.get(sid, [])
            self.assertEqual([seq for seq, _raw in frames], list(range(count)), name)
            preview = subprocess.run([sys.modules["__main__"].LINERATE, "frames", os.path.join(self.dir, "profile.toml"),
                                      "--stream", name, "--count", str(count), "--hex"], capture_output=True, text=True)
            self.assertEqual(preview.returncode, 0, preview.stderr)
            lines = preview.stdout.strip().split("\n")
            self.assertEqual(len(lines), count)
            masked = lambda frame: frame[:l4 + 6] + frame[l4 + 8:-5]
            for seq, (line, (_seq, raw)) in enumerate(zip(lines, frames)):
                shown = bytes.fromhex(line.split(" ")[3])
                self.assertEqual(len(shown), len(raw), "%s frame %d" % (name, seq))
                self.assertEqual(masked(shown), masked(raw), "%s frame %d" % (name, seq))

    def test_streams_sharing_their_ports_pool_send_the_frames_they_would_alone(self):
        """[run] tx_buffers = "shared": the streams' mbufs come from one pool of the port, each
        carrying frames of every stream in turn (a 1518-byte frame's buffer then holds a 64-byte
        one), so each frame is copied whole from its stream's template."""
        self.sent_as_previewed({
            "fixed": ("frame_size = 64\nipv4 = { src = \"198.18.0.1\", dst = \"198.19.0.1\" }\n"
                      "udp = { src = 1024, dst = 1025 }", 200, 14 + 20),
            "imix": ("frame_size = [64, 594, 1518]\nframe_weights = [7, 4, 1]\nvlan = { id = 7, pcp = 3 }\n"
                     "ipv4 = { src = \"198.18.1.1\", dst = \"198.19.1.1\" }\nudp = { src = 2000, dst = 2001 }\n"
                     "vary = [ { field = \"ipv4.src\", count = 5 }, { field = \"udp.dst\", op = \"decrement\", count = 3 } ]",
                     240, 18 + 20),
            "v6": ("frame_size = { min = 95, max = 1501, order = \"random\" }\n"
                   "ipv6 = { src = \"2001:200::1\", dst = \"2001:200::ff\" }\nudp = { src = 5000, dst = 5001 }\n"
                   "vary = [ { field = \"ipv6.dst\", count = 5, step = 256 } ]", 150, 14 + 40),
            "varied": ("frame_size = 128\nipv4 = { src = \"198.18.2.1\", dst = \"198.19.2.1\" }\n"
                       "udp = { src = 3000, dst = 3001 }\nvary = [ { field = \"udp.src\", count = 1000, step = 3 } ]",
                       180, 14 + 20),
        }, "shared", "TX frames copied per frame from each stream's template into its port's shared pool: "
                     "as [run] tx_buffers asks")

    def test_imix_streams_with_a_pool_per_size_send_the_frames_they_would_alone(self):
        """A stream of a few sizes and fixed headers has a pool per size, each filled with that
        size's frame: per frame the signature and the UDP checksum only, the size's share of the
        sum added (IMIX over VLAN + IPv4 and over IPv6, four sizes in turn). Sizes whose
        signatures fall at both parities in the datagram ([64, 65, 128]) are written whole
        instead."""
        self.sent_as_previewed({
            "imix": ("frame_size = [64, 594, 1518]\nframe_weights = [7, 4, 1]\nvlan = { id = 7, pcp = 3 }\n"
                     "ipv4 = { src = \"198.18.1.1\", dst = \"198.19.1.1\" }\nudp = { src = 2000, dst = 2001 }",
                     300, 18 + 20),
            "v6": ("frame_size = [80, 594, 1518]\nframe_weights = [1, 2, 1]\n"
                   "ipv6 = { src = \"2001:200::1\", dst = \"2001:200::ff\" }\nudp = { src = 5000, dst = 5001 }",
                   150, 14 + 40),
            "four": ("frame_size = [128, 256, 512, 1024]\nipv4 = { src = \"198.18.3.1\", dst = \"198.19.3.1\" }\n"
                     "udp = { src = 3000, dst = 3001 }", 130, 14 + 20),
            "parities": ("frame_size = [64, 65, 128]\nipv4 = { src = \"198.18.2.1\", dst = \"198.19.2.1\" }\n"
                         "udp = { src = 4000, dst = 4001 }", 100, 14 + 20),
        }, "per_stream", "TX frames from a pool per stream (an IMIX stream's: a pool per size), filled with its frame: "
                         "4 streams")

    def roce_capture(self, stream_toml, count):
        """The stream's frames from the pcap with tshark's RoCEv2 fields, each frame's ICRC
        checked against a CRC-32 computed here by the annex's rule."""
        self.capture(stream_toml, count)
        pcap = os.path.join(self.dir, "tx.pcap")
        fields = ["frame.len", "udp.srcport", "udp.dstport", "udp.checksum", "infiniband.bth.opcode",
                  "infiniband.bth.padcnt", "infiniband.bth.p_key", "infiniband.bth.destqp", "infiniband.bth.psn",
                  "infiniband.reth.va", "infiniband.reth.r_key", "infiniband.reth.dmalen", "infiniband.deth.q_key",
                  "infiniband.deth.srcqp", "infiniband.invariant.crc", "_ws.malformed", "_ws.expert.severity"]
        out = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-E", "separator=|", "-E", "occurrence=f"] +
                             sum([["-e", f] for f in fields], []), capture_output=True, text=True, check=True).stdout
        rows = [dict(zip(fields, line.split("|"))) for line in out.strip().split("\n")]
        self.assertEqual(len(rows), count)
        for row, raw in zip(rows, lrtest.read_pcap(pcap)):
            row["raw"] = raw
            self.assertEqual(row["_ws.malformed"], "", "nothing malformed")
            self.assertEqual(row["_ws.expert.severity"], "", "no expert warning")
            l3 = 18 if raw[12:14] == b"\x81\x00" else 14
            packet = bytearray(raw[l3:-4])
            if packet[0] >> 4 == 4:
                packet[1] = packet[8] = packet[10] = packet[11] = 0xFF  # TOS, TTL, header checksum
                l4 = 20
            else:
                packet[0] |= 0x0F  # traffic class, flow label, hop limit
                packet[1:4] = b"\xff\xff\xff"
                packet[7] = 0xFF
                l4 = 40
            packet[l4 + 6:l4 + 8] = b"\xff\xff"  # UDP checksum
            packet[l4 + 12] = 0xFF                 # BTH FECN, BECN, reserved
            icrc = zlib.crc32(b"\xff" * 8 + bytes(packet)) & 0xFFFFFFFF
            self.assertEqual(struct.unpack("<I", raw[-4:])[0], icrc, "ICRC")
            self.assertEqual(int(row["infiniband.invariant.crc"], 16), struct.unpack(">I", raw[-4:])[0])
        return rows

    def test_roce_frames_dissect_as_rocev2_with_a_valid_icrc(self):
        rows = self.roce_capture("""
[[stream]]
name = "write"
tx_port = "cap"
frame_size = 1086
rate = "20kpps"
count = 40
vlan = { id = 100, pcp = 3 }
ipv4 = { src = "198.18.0.1", dst = "198.19.0.1", dscp = 26, ecn = 2 }
udp = { src = 49152 }
roce = { opcode = "rc-write-only", dest_qp = 0x11, psn = 0xFFFFF0, pkey = 0x8001, va = 0x10000, rkey = 0x1234 }
vary = [ { field = "udp.src", count = 8 } ]
""", 40)
        for seq, row in enumerate(rows):
            self.assertEqual(int(row["frame.len"]), 1082)
            self.assertEqual((int(row["udp.srcport"]), int(row["udp.dstport"])), (49152 + seq % 8, 4791))
            self.assertEqual(int(row["udp.checksum"], 16), 0, "RoCEv2 leaves the UDP checksum to the ICRC")
            self.assertEqual(int(row["infiniband.bth.opcode"]), 0x0A)
            self.assertEqual(int(row["infiniband.bth.padcnt"]), 0)
            self.assertEqual(int(row["infiniband.bth.p_key"], 0), 0x8001)
            self.assertEqual(int(row["infiniband.bth.destqp"], 0), 0x11)
            self.assertEqual(int(row["infiniband.bth.psn"]), (0xFFFFF0 + seq) & 0xFFFFFF, "the PSN wraps at 2^24")
            self.assertEqual(int(row["infiniband.reth.va"], 0), 0x10000)
            self.assertEqual(int(row["infiniband.reth.r_key"], 0), 0x1234)
            self.assertEqual(int(row["infiniband.reth.dmalen"]), 1086 - 4 - 4 - 74, "the payload, signature included")
            payload = row["raw"][14 + 4 + 20 + 8 + 12 + 16:-4]
            self.check_signature({"raw": payload}, 0, seq, 0)

    def test_roce_over_ipv6_with_a_deth(self):
        rows = self.roce_capture("""
[[stream]]
name = "ud"
tx_port = "cap"
rate = "20kpps"
count = 10
ipv6 = { src = "2001:200::1", dst = "2001:200::2", dscp = 26, ecn = 1 }
roce = { opcode = "ud-send-only", dest_qp = 7, qkey = 0x80010000, src_qp = 3 }
vary = [ { field = "ipv6.src", count = 3 }, { field = "udp.src", op = "random", count = 1000 } ]
""", 10)
        for seq, row in enumerate(rows):
            self.assertEqual(int(row["frame.len"]), 14 + 40 + 8 + 12 + 8 + 16 + 4, "the smallest: a 16-byte payload")
            self.assertEqual(int(row["infiniband.bth.opcode"]), 0x64)
            self.assertEqual(int(row["infiniband.bth.psn"]), seq)
            self.assertEqual(int(row["infiniband.deth.q_key"], 0), 0x80010000)
            self.assertEqual(int(row["infiniband.deth.srcqp"], 0), 3)
        # IPv6 forbids a zero UDP checksum: this one is computed, and good.
        status = subprocess.run(["tshark", "-r", os.path.join(self.dir, "tx.pcap"), "-o", "udp.check_checksum:TRUE",
                                 "-T", "fields", "-e", "udp.checksum.status"], capture_output=True, text=True,
                                check=True).stdout.split()
        self.assertEqual(status, ["1"] * 10)

    def test_pfc_frames_dissect_as_mac_control_and_refresh_their_pause(self):
        """A PFC stream refreshed automatically: twice per pause time of its largest
        quanta at the port's 10G (65535 quanta = 3355.39 us, so 596.05 frames/s), each
        frame a MAC Control frame tshark reads as PFC, with the signature in its padding."""
        pcap = os.path.join(self.dir, "pfc.pcap")
        proc, report = self.run_dataplane("""
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "50ms"
[[port]]
name = "cap"
device = "net_pcap0,tx_pcap=%s"
rx_queues = 0
speed = "10G"
[[stream]]
name = "storm"
tx_port = "cap"
kind = "pfc"
priorities = [3, 5]
quanta = [0, 0, 0, 65535, 0, 1000, 0, 0]
refresh = "auto"
duration = "300ms"
""" % pcap)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("stream 'storm' cap -> (transmit only): PFC frames pausing 3355.39 us each, 0.000596 Mpps", proc.stdout)
        stream = report["streams"][0]
        self.assertAlmostEqual(stream["target_pps"], 2 * 10e9 / (65535 * 512), places=6)
        self.assertTrue(170 <= stream["tx_packets"] <= 179, stream["tx_packets"])
        fields = ["frame.len", "eth.dst", "macc.opcode", "macc.cbfc.enbv"] + ["macc.cbfc.pause_time.c%d" % p for p in range(8)]
        out = subprocess.run(["tshark", "-r", pcap, "-T", "fields", "-E", "separator=|"] + sum([["-e", f] for f in fields], []),
                             capture_output=True, text=True, check=True).stdout.strip().split("\n")
        self.assertEqual(len(out), stream["tx_packets"])
        for seq, (line, raw) in enumerate(zip(out, lrtest.read_pcap(pcap))):
            row = dict(zip(fields, line.split("|")))
            self.assertEqual((row["frame.len"], row["eth.dst"]), ("60", "01:80:c2:00:00:01"))
            self.assertEqual((int(row["macc.opcode"], 0), int(row["macc.cbfc.enbv"], 0)), (0x0101, 0x28))
            self.assertEqual([int(row["macc.cbfc.pause_time.c%d" % p]) for p in range(8)], [0, 0, 0, 65535, 0, 1000, 0, 0])
            self.check_signature({"raw": raw}, 0, seq, 34)

    def test_mac_control_frames_received_are_counted_per_priority(self):
        """MAC Control frames as a DUT sends them (no signature), read from a pcap by the
        port: counted per priority and opcode, not as frames without a signature; other
        frames of EtherType 0x8808 or of 60 bytes are not taken for them."""
        def mac_control(opcode, body):
            frame = bytes.fromhex("0180c2000001" "020000000007" "8808") + struct.pack(">H", opcode) + body
            return frame + bytes(60 - len(frame))
        def pfc(vector, quanta):
            return mac_control(0x0101, struct.pack(">H8H", vector, *quanta))
        frames = [
            pfc(0x08, [0, 0, 0, 65535, 0, 0, 0, 0]),     # priority 3 XOFF
            pfc(0x08, [0, 0, 0, 0, 0, 0, 0, 0]),         # priority 3 XON
            pfc(0xFF81, [100, 0, 0, 0, 0, 0, 0, 200]),   # priorities 0 and 7, reserved bits set
            mac_control(0x0001, struct.pack(">H", 500)),  # PAUSE
            mac_control(0x0001, struct.pack(">H", 0)),    # PAUSE XON
            mac_control(0x0006, bytes(4)),                # another opcode
            pfc(0x08, [0, 0, 0, 65535, 0, 0, 0, 0]) + bytes(40),  # 100 bytes: not a MAC Control frame
            bytes.fromhex("ffffffffffff" "020000000007" "0806") + bytes(46),  # 60-byte ARP-like frame
        ]
        rx = os.path.join(self.dir, "dut.pcap")
        lrtest.write_pcap(rx, frames)
        proc, report = self.run_dataplane("""
[eal]
lcores = "0-1"
huge_pages = "off"
[run]
drain = "100ms"
[[port]]
name = "tester"
device = "net_pcap0,rx_pcap=%s,tx_pcap=%s"
speed = "10G"
[[stream]]
name = "background"
tx_port = "tester"
rate = "1kpps"
duration = "300ms"
""" % (rx, os.path.join(self.dir, "tx.pcap")))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        port = self.port(report, "tester")
        self.assertEqual(port["rx_no_signature"], 2, "the 100-byte 0x8808 frame and the ARP-like one")
        mc = port["mac_control"]
        self.assertEqual((mc["pfc_frames"], mc["pause_frames"], mc["other_frames"]), (3, 2, 1))
        quantum_ns = 512 / 10e9 * 1e9
        self.assertEqual([(c["priority"], c["xoff"], c["xon"], c["quanta"]) for c in mc["pfc"]],
                         [(0, 1, 0, 100), (3, 1, 1, 65535), (7, 1, 0, 200)])
        for c in mc["pfc"]:
            self.assertAlmostEqual(c["pause_ns"], c["quanta"] * quantum_ns, places=3)
        self.assertEqual((mc["pause"]["xoff"], mc["pause"]["xon"], mc["pause"]["quanta"]), (1, 1, 500))
        self.assertLessEqual(mc["first_s"], mc["last_s"])
        self.assertIn("port tester: MAC Control frames received: 3 PFC, 2 PAUSE, 1 with another opcode; first at", proc.stdout)
        self.assertIn("    priority 3: 1 XOFF, 1 XON, 65535 quanta = 3.355 ms of pause asked", proc.stdout)

    def test_shipped_pfc_examples_send_then_count_the_same_frames(self):
        """config/examples/pfc_frames.toml writes PFC and PAUSE frames; pfc_receive.toml
        reads them back as a DUT's and counts each one (docs/guide/lossless.md's example)."""
        examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "config", "examples")
        pcap = os.path.join(self.dir, "pfc.pcap")
        def example(name):
            with open(os.path.join(examples, name)) as f:
                return f.read().replace("/tmp/linerate-pfc.pcap", pcap)
        proc, sent = self.run_dataplane(example("pfc_frames.toml"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        storm = self.stream(sent, "pfc-storm-p3")["tx_packets"]
        self.assertEqual((self.stream(sent, "pfc-xon-p3")["tx_packets"], self.stream(sent, "pause")["tx_packets"]), (10, 100))
        proc, received = self.run_dataplane(example("pfc_receive.toml"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        port = self.port(received, "tester")
        mc = port["mac_control"]
        self.assertEqual((mc["pfc_frames"], mc["pause_frames"], port["rx_no_signature"]), (storm + 10, 100, 0))
        self.assertEqual([(c["priority"], c["xoff"], c["xon"], c["quanta"]) for c in mc["pfc"]], [(3, storm, 10, storm * 65535)])
        self.assertEqual((mc["pause"]["xoff"], mc["pause"]["quanta"]), (100, 100 * 4096))
        self.assertIn("    PAUSE: 100 XOFF, 0 XON, 409600 quanta = 5.243 ms of pause asked", proc.stdout)


if __name__ == "__main__":
    lrtest.main()
