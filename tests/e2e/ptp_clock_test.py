"""What `hello` says of the clock, read from linuxptp: two ptp4l -S over a veth pair in
namespaces this test makes, a grandmaster (priority1 1) and a port that only listens to it
(slaveOnly), both free_running so that this host's clock is never touched (the listening
port then stays UNCALIBRATED: it never locks). A data plane reading the grandmaster's
socket (--ptp) says its clock is vouched for; one reading the other's says why it is not;
one with a socket nobody serves says that."""
import json
import os
import shutil
import subprocess
import unittest

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument

PROFILE = lrtest.RING_SERVICE


class PtpClock(lrtest.DataplaneCase):
    def setUp(self):
        super().setUp()
        self.assertIsNotNone(shutil.which("ptp4l"), "linuxptp is installed by scripts/setup.sh")
        tag = "%d" % os.getpid()
        self.ns = ["lrptp-gm-" + tag, "lrptp-sl-" + tag]
        links = ["lrptpg" + tag[-6:], "lrptps" + tag[-6:]]
        for ns in self.ns:
            lrtest.sh("ip", "netns", "add", ns)
            self.addCleanup(subprocess.run, ["ip", "netns", "del", ns], capture_output=True)
        lrtest.sh("ip", "link", "add", links[0], "type", "veth", "peer", "name", links[1])
        self.uds = []
        for ns, link, role in zip(self.ns, links, ("priority1 1", "slaveOnly 1")):
            lrtest.sh("ip", "link", "set", link, "netns", ns)
            lrtest.sh("ip", "-n", ns, "link", "set", link, "up")
            uds = os.path.join(self.dir, ns + ".uds")
            config = os.path.join(self.dir, ns + ".cfg")
            with open(config, "w") as f:
                f.write("[global]\nuds_address %s\n%s\nfree_running 1\nnetwork_transport L2\n" % (uds, role))
            proc = subprocess.Popen(["ip", "netns", "exec", ns, "ptp4l", "-S", "-i", link, "-f", config],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.addCleanup(lambda p=proc: (p.terminate(), p.wait(10)))
            self.uds.append(uds)

    def hello_with(self, uds, name):
        sock = os.path.join(self.dir, name + ".sock")
        prefix = "lr-e2e-ptp-%s-%d" % (name, os.getpid())
        self.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
        profile = self.write_profile(PROFILE % (prefix, sock), name + ".toml")
        proc = subprocess.Popen([lrtest.BINARY, "--config", profile, "--serve", "--quiet", "--ptp", uds],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: (proc.terminate(), proc.communicate(timeout=30)))
        lrtest.wait_for_socket(self, proc, sock)
        client = lrtest.Client(sock)
        self.addCleanup(client.close)
        return lambda: client.result("hello")["clock"]

    def test_the_grandmaster_is_vouched_for_and_an_unlocked_port_is_not(self):
        grandmaster = self.hello_with(self.uds[0], "gm")
        listener = self.hello_with(self.uds[1], "sl")
        clock = lrtest.wait_until(lambda: (lambda c: c if c["ptp"].get("port_state") == "MASTER" else None)(
            grandmaster()), "ptp4l's port to become MASTER", timeout=40)
        self.assertTrue(clock["synchronised"], clock)
        self.assertEqual(clock["error_ns"], 0)
        self.assertEqual(clock["why"], "this host's clock is the grandmaster %s" % clock["ptp"]["gm_identity"])
        self.assertEqual((clock["ptp"]["timestamping"], clock["ptp"]["uds"]), ("SOFTWARE", self.uds[0]))
        self.assertLess(clock["ptp"]["read_ms_ago"], 5000)
        other = lrtest.wait_until(lambda: (lambda c: c if c["ptp"].get("port_state") == "UNCALIBRATED" else None)(
            listener()), "the listening port to hear the grandmaster", timeout=40)
        self.assertFalse(other["synchronised"])
        self.assertEqual(other["why"], "ptp4l's port is UNCALIBRATED: not locked to a grandmaster (it hears %s)"
                         % clock["ptp"]["gm_identity"])
        self.assertEqual(other["ptp"]["gm_identity"], clock["ptp"]["gm_identity"])
        self.assertNotIn("error_ns", other)

    def test_a_socket_nobody_serves_says_so(self):
        nobody = os.path.join(self.dir, "nobody.uds")
        hello = self.hello_with(nobody, "none")
        clock = lrtest.wait_until(lambda: (lambda c: c if "read_ms_ago" in c["ptp"] else None)(hello()),
                                  "the first reading")
        self.assertFalse(clock["ptp"]["answered"])
        self.assertFalse(clock["synchronised"])
        self.assertEqual(clock["why"], "no ptp4l answered at %s" % nobody)


if __name__ == "__main__":
    lrtest.main()
