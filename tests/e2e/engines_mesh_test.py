"""`linerate run` over a full mesh of four data planes: each pair joined by its own net_memif
link (six links, three ports each), one profile whose twelve streams go from every data
plane to every other, all started at one instant. Every stream is counted exactly: what its
sender sent, its receiver received, none lost, duplicated or out of order, and each data
plane's section is in the one report."""
import itertools
import json
import os
import shutil
import subprocess

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument
FRAMES = 2000


def engine_profile(i, lcores, prefix, sock, links):
    """Data plane i's own profile: a port to{j} per other data plane j, on the memif link of the pair."""
    out = ['[eal]\nlcores = "%s"\nhuge_pages = "off"\nextra_args = ["--file-prefix", "%s"]\n[control]\nsocket = "%s"\n'
           % (lcores, prefix, sock)]
    for j in range(4):
        if j == i:
            continue
        role, path = links[(min(i, j), max(i, j))]
        out.append('[[port]]\nname = "to%d"\ndevice = "net_memif%d,role=%s,socket=%s,socket-abstract=no,id=0"\n'
                   'speed = "10G"\n' % (j, j, "server" if i < j else "client", path))
    return "".join(out)


class FullMesh(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.certs = lrtest.make_engine_certs(self)
        links = {(a, b): ("", os.path.join(self.dir, "m%d%d.sock" % (a, b)))
                 for a, b in itertools.combinations(range(4), 2)}
        self.engines, procs = [], []
        for i in range(4):
            prefix = "lr-e2e-mesh%d-%d" % (i, os.getpid())
            self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
            lcores = "0-1" if i % 2 == 0 else "0@1,1@0"  # the four workers spread over the two CPUs
            profile = self.write_profile(engine_profile(i, lcores, prefix, os.path.join(self.dir, "dp%d.sock" % i),
                                                        links), "engine%d.toml" % i)
            address, proc = lrtest.serve_engine(self, profile, self.certs)
            self.engines.append(address)
            procs.append(proc)
            # A memif client connects once, at its start: the sockets of its servers (data
            # planes before it) are there by then.
            for j in range(i + 1, 4):
                path = links[(i, j)][1]
                lrtest.wait_until(lambda: os.path.exists(path) or proc.poll() is not None, "memif socket %s" % path)
        for i, proc in enumerate(procs):
            lrtest.wait_for_socket(self, proc, os.path.join(self.dir, "dp%d.sock" % i))

    def test_every_pair_both_ways_counted_exactly(self):
        text = ['[run]\ndrain = "300ms"\n']
        for i in range(4):
            for j in range(4):
                if i != j:
                    text.append('[[port]]\nname = "dp%d-to%d"\nlocation = "%s;to%d"\n' % (i, j, self.engines[i], j))
        for i, j in itertools.permutations(range(4), 2):
            text.append('[[stream]]\nname = "%d-%d"\ntx_port = "dp%d-to%d"\nrx_port = "dp%d-to%d"\nframe_size = %d\n'
                        'rate = "20kpps"\ncount = %d\n' % (i, j, i, j, j, i, 64 + 64 * i + 16 * j, FRAMES))
        report_file = os.path.join(self.dir, "mesh.json")
        run = subprocess.run([LINERATE, *lrtest.controller_args(self.certs), "run",
                              self.write_profile("".join(text), "mesh.toml"), "--report", report_file],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        with open(report_file) as f:
            report = json.load(f)
        self.assertEqual(len(report["streams"]), 12)
        for s in report["streams"]:
            self.assertEqual((s["tx_packets"], s["rx_packets"], s["lost"], s["duplicate"], s["out_of_order"]),
                             (FRAMES, FRAMES, 0, 0, 0), s["name"])
        self.assertEqual([e["engine"] for e in report["engines"]], self.engines)
        ports = {p["name"]: p for p in report["ports"]}
        for i, j in itertools.permutations(range(4), 2):
            self.assertEqual(ports["dp%d-to%d" % (i, j)]["opackets"], FRAMES)
            self.assertEqual(ports["dp%d-to%d" % (i, j)]["ipackets"], FRAMES)
        for e in report["engines"]:
            self.assertGreaterEqual(e["start"]["first_tx_utc_ns"], report["start"]["asked_utc_ns"])


if __name__ == "__main__":
    lrtest.main()
