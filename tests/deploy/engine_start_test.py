"""docker/engine-start.sh, an engine's start in a pod: the profile template filled with the
container's CPUs and its NIC (LINERATE_DEVICE, an SR-IOV device plugin's PCIDEVICE_*, or a
netdev's PCI address), and the data plane's command serving the pod's address over mutual
TLS; each way it cannot start said, with exit status 1. Run with LINERATE_DRY_RUN=1: it prints
the profile and the command instead of starting them."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "docker", "engine-start.sh")
TEMPLATE = os.path.join(ROOT, "deploy", "kubernetes", "base", "engine.toml")


def cpus_allowed():
    with open("/proc/self/status") as f:
        return next(line.split(":", 1)[1].strip() for line in f if line.startswith("Cpus_allowed_list:"))


class EngineStart(unittest.TestCase):
    def start(self, **env):
        base = {"PATH": os.environ["PATH"], "LINERATE_DRY_RUN": "1", "LINERATE_PROFILE_TEMPLATE": TEMPLATE,
                "POD_IP": "10.42.0.7"}
        base.update(env)
        return subprocess.run([SCRIPT, "--quiet"], env={k: v for k, v in base.items() if v is not None},
                              capture_output=True, text=True, timeout=30)

    def test_an_sriov_vf_and_the_containers_cpus_fill_the_profile(self):
        run = self.start(PCIDEVICE_INTEL_COM_LINERATE_VF="0000:3b:02.1,0000:3b:02.2",
                         PCIDEVICE_INTEL_COM_LINERATE_VF_INFO='{"0000:3b:02.1": {"generic": {}}}')
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn('lcores = "%s"\n' % cpus_allowed(), run.stdout)
        self.assertIn('device = "0000:3b:02.1"\n', run.stdout)  # the first VF it was given
        self.assertNotIn("@", run.stdout.replace('"linerate"', ""))
        self.assertTrue(run.stdout.endswith(
            "--serve --listen 10.42.0.7:7300 --tls-ca /etc/linerate/tls/ca.pem --tls-cert /etc/linerate/tls/engine.pem "
            "--tls-key /etc/linerate/tls/engine.key --quiet\n"), run.stdout)
        ipv6 = self.start(LINERATE_DEVICE="net_null0", POD_IP="fd00::7")
        self.assertIn("--listen [fd00::7]:7300 ", ipv6.stdout)
        self.assertIn('device = "net_null0"\n', ipv6.stdout)

    def test_a_netdev_moved_into_the_pod_is_its_pci_address(self):
        with tempfile.TemporaryDirectory() as sys_root:
            pci = os.path.join(sys_root, "devices", "pci0000:3a", "0000:3b:00.0")
            os.makedirs(pci)
            os.makedirs(os.path.join(sys_root, "class", "net", "net1"))
            os.symlink(pci, os.path.join(sys_root, "class", "net", "net1", "device"))
            run = self.start(LINERATE_NETDEV="net1", LINERATE_SYS=sys_root)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn('device = "0000:3b:00.0"\n', run.stdout)
            gone = self.start(LINERATE_NETDEV="net2", LINERATE_SYS=sys_root)
        self.assertEqual((gone.returncode, gone.stdout), (1, ""))
        self.assertEqual(gone.stderr, "linerate-engine-start: netdev net2 (LINERATE_NETDEV) has no device in %s/class/"
                                      "net: is it in this pod?\n" % sys_root)

    def test_what_it_cannot_start_without_is_said(self):
        for env, said in (({}, "no NIC: set LINERATE_DEVICE, request an SR-IOV VF (PCIDEVICE_* in the environment), or "
                                "set LINERATE_NETDEV"),
                          ({"LINERATE_DEVICE": "0000:3b:02.1", "POD_IP": None},
                           "POD_IP is not set (the downward API's status.podIP)"),
                          ({"LINERATE_DEVICE": "0000:3b:02.1", "LINERATE_PROFILE_TEMPLATE": "/nonexistent.toml"},
                           "cannot read the profile template /nonexistent.toml")):
            with self.subTest(said=said):
                run = self.start(**env)
                self.assertEqual((run.returncode, run.stderr), (1, "linerate-engine-start: %s\n" % said))


if __name__ == "__main__":
    unittest.main(verbosity=2)
