"""What `hello` says of the clock, read from linuxptp: two ptp4l -S over a veth pair in
namespaces this test makes, a grandmaster (priority1 1) and a port that only listens to it
(slaveOnly), both free_running so that this host's clock is never touched (the listening
port then stays UNCALIBRATED: it never locks). A data plane reading the grandmaster's
socket (--ptp) says its clock is vouched for; one reading the other's says why it is not;
one with a socket nobody serves says that. With hardware timestamping (a stand-in pmc: this
VM has no PTP hardware clock) the clock is vouched for only once CLOCK_REALTIME was measured
against the NIC's clock, and a port on a netdev without one says so."""
import json
import os
import shutil
import subprocess
import unittest

import lrtest

LINERATE = None  # the CLI: lrtest.main sets it from the second argument
HERE = os.path.dirname(os.path.abspath(__file__))

PROFILE = lrtest.RING_SERVICE


def hello_with(case, uds, name, env=None):
    """A data plane serving with `--ptp uds` (and `env`, if given); a function that returns its
    hello's clock."""
    sock = os.path.join(case.dir, name + ".sock")
    prefix = "lr-e2e-ptp-%s-%d" % (name, os.getpid())
    case.addCleanup(shutil.rmtree, "/var/run/dpdk/" + prefix, True)
    profile = case.write_profile(PROFILE % (prefix, sock), name + ".toml")
    proc = subprocess.Popen([lrtest.BINARY, "--config", profile, "--serve", "--quiet", "--ptp", uds],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    case.addCleanup(lambda: (proc.terminate(), proc.communicate(timeout=30)))
    lrtest.wait_for_socket(case, proc, sock)
    client = lrtest.Client(sock)
    case.addCleanup(client.close)
    return lambda: client.result("hello")["clock"]


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

    def test_the_grandmaster_is_vouched_for_and_an_unlocked_port_is_not(self):
        grandmaster = hello_with(self, self.uds[0], "gm")
        listener = hello_with(self, self.uds[1], "sl")
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
        hello = hello_with(self, nobody, "none")
        clock = lrtest.wait_until(lambda: (lambda c: c if "read_ms_ago" in c["ptp"] else None)(hello()),
                                  "the first reading")
        self.assertFalse(clock["ptp"]["answered"])
        self.assertFalse(clock["synchronised"])
        self.assertEqual(clock["why"], "no ptp4l answered at %s" % nobody)


class HardwareTimestamping(lrtest.DataplaneCase):
    """ptp4l with hardware timestamping steers the NIC's clock (PHC), which CLOCK_REALTIME
    follows only through phc2sys: the data plane measures CLOCK_REALTIME against that clock
    (ETHTOOL_GET_TS_INFO's /dev/ptpN, then PTP_SYS_OFFSET_EXTENDED) before vouching for it.
    This VM (Firecracker) has no /dev/ptp* at all, so the measurement itself cannot run here
    (tests/unit/host/phc_offset_test.cpp checks its arithmetic and its refusals): a stand-in
    pmc (tests/e2e/fake-bin/pmc) puts ptp4l's port on lo, which has no PHC, and hello says so."""

    def test_a_port_without_a_hardware_clock_is_not_vouched_for(self):
        ptp = os.path.join(self.dir, "ptp")
        with open(ptp, "w") as f:
            f.write("state=SLAVE\noffset=150\nts=HARDWARE\niface=lo\n")
        env = dict(os.environ, PATH=os.path.join(HERE, "fake-bin") + ":" + os.environ["PATH"], LR_FAKE_PTP=ptp)
        hello = hello_with(self, os.path.join(self.dir, "ptp4l"), "hw", env)
        clock = lrtest.wait_until(lambda: (lambda c: c if c["ptp"].get("timestamping") == "HARDWARE" else None)(
            hello()), "the first reading")
        self.assertFalse(clock["synchronised"], clock)
        self.assertEqual(clock["why"], "hardware timestamping: CLOCK_REALTIME against the NIC's clock of lo could "
                         "not be read: lo has no PTP hardware clock")
        self.assertNotIn("error_ns", clock)
        ptp_json = clock["ptp"]
        self.assertEqual((ptp_json["port_state"], ptp_json["interface"], ptp_json["master_offset_ns"]),
                         ("SLAVE", "lo", 150))
        self.assertEqual((ptp_json["utc_offset_s"], ptp_json["utc_offset_valid"], ptp_json["ptp_timescale"]),
                         (37, True, True))
        self.assertEqual(ptp_json["phc"], {"problem": "lo has no PTP hardware clock"})
        # The same port with software timestamping: ptp4l steers CLOCK_REALTIME itself, no PHC read.
        with open(ptp, "w") as f:
            f.write("state=SLAVE\noffset=150\nts=SOFTWARE\niface=lo\n")
        clock = lrtest.wait_until(lambda: (lambda c: c if c["synchronised"] else None)(hello()),
                                  "the software-timestamped clock to be vouched for", timeout=10)
        self.assertEqual((clock["error_ns"], clock["ptp"]["timestamping"]), (150, "SOFTWARE"))
        self.assertNotIn("phc", clock["ptp"])


if __name__ == "__main__":
    lrtest.main()
