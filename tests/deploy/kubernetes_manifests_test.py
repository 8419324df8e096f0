"""The Kubernetes manifests (deploy/kubernetes), rendered offline by `kubectl kustomize` for
every overlay, against the rules a DPDK engine on a cluster must keep: Guaranteed QoS
(requests equal to limits, the engine's CPUs whole, one hugepages size requested as its
limit and mounted), never privileged, only the capabilities the overlay's NIC needs, probes,
the TLS Secrets mounted, selectors that select, and a location map that names every engine.
Each rule is shown failing on a manifest broken the way it looks for.

    python3 tests/deploy/kubernetes_manifests_test.py   (kubectl on PATH: scripts/setup.sh
    installs Debian's kubernetes-client where there is none)
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import unittest

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KUSTOMIZE = os.path.join(ROOT, "deploy", "kubernetes")

# What each overlay's engine may add to its capabilities (all others dropped).
ENGINE_CAPABILITIES = {
    "sriov": {"IPC_LOCK"},
    "sriov-2mi": {"IPC_LOCK"},
    "sriov-ptp": {"IPC_LOCK"},
    "mlx5": {"IPC_LOCK", "NET_RAW", "NET_ADMIN", "SYS_RAWIO"},
}
NIC_RESOURCE = {"sriov": "intel.com/linerate_vf", "sriov-2mi": "intel.com/linerate_vf",
                "sriov-ptp": "intel.com/linerate_vf", "mlx5": "rdma/hca_shared_devices_a"}
WORKLOADS = ("Deployment", "StatefulSet", "DaemonSet", "Job")


def render(overlay, under="overlays"):
    out = subprocess.run(["kubectl", "kustomize", os.path.join(KUSTOMIZE, under, overlay)], capture_output=True,
                         text=True, check=True)
    return [o for o in yaml.safe_load_all(out.stdout) if o]


def named(objects, kind, name=None):
    found = [o for o in objects if o["kind"] == kind and (name is None or o["metadata"]["name"] == name)]
    return found


def whole_cpus(value):
    """The CPUs of a quantity when whole ("4", 4), else None ("500m", "1.5")."""
    text = str(value)
    return int(text) if text.isdigit() else None


def problems(objects, overlay):
    """Every rule the rendered `objects` of `overlay` break, one line each."""
    out = []
    kinds = {(o["kind"], o["metadata"]["name"]) for o in objects}
    for w in [o for o in objects if o["kind"] in WORKLOADS]:
        where = "%s/%s" % (w["kind"], w["metadata"]["name"])
        template = w["spec"]["template"]
        spec = template["spec"]
        labels = template["metadata"].get("labels", {})
        selector = w["spec"].get("selector", {}).get("matchLabels", {})
        if w["kind"] != "Job" and (not selector or any(labels.get(k) != v for k, v in selector.items())):
            out.append("%s: its selector %s does not select its pods %s" % (where, selector, labels))
        volumes = {v["name"]: v for v in spec.get("volumes", [])}
        for v in volumes.values():
            if "configMap" in v and ("ConfigMap", v["configMap"]["name"]) not in kinds:
                out.append("%s: volume %s names ConfigMap %s, which the render lacks" % (where, v["name"],
                                                                                        v["configMap"]["name"]))
        engine = w["metadata"]["name"] == "linerate-engine"
        for c in spec["containers"]:
            at = "%s container %s" % (where, c["name"])
            sc = c.get("securityContext", {})
            if sc.get("privileged", False):
                out.append("%s: privileged" % at)
            if sc.get("allowPrivilegeEscalation", True):
                out.append("%s: allowPrivilegeEscalation is not false" % at)
            caps = sc.get("capabilities", {})
            if "ALL" not in caps.get("drop", []):
                out.append("%s: does not drop ALL capabilities" % at)
            allowed = ENGINE_CAPABILITIES[overlay] if engine and c["name"] == "engine" else set()
            if set(caps.get("add", [])) - allowed:
                out.append("%s: adds %s (allowed here: %s)" % (at, sorted(set(caps.get("add", [])) - allowed),
                                                              sorted(allowed) or "none"))
            requests, limits = c.get("resources", {}).get("requests", {}), c.get("resources", {}).get("limits", {})
            if engine:  # Guaranteed QoS: every container's requests are its limits
                for key in ("cpu", "memory"):
                    if key not in limits or str(requests.get(key)) != str(limits.get(key)):
                        out.append("%s: %s request %s is not its limit %s" % (at, key, requests.get(key),
                                                                              limits.get(key)))
            if engine and c["name"] == "engine":
                if whole_cpus(limits.get("cpu")) is None:
                    out.append("%s: cpu %s is not whole CPUs (the static CPU manager gives none of its own)"
                               % (at, limits.get("cpu")))
                pages = sorted(k for k in limits if k.startswith("hugepages-"))
                if len(pages) != 1 or str(requests.get(pages[0])) != str(limits[pages[0]]):
                    out.append("%s: hugepages %s requested as %s: one size, requested as its limit"
                               % (at, {k: limits[k] for k in pages}, {k: requests.get(k) for k in pages}))
                mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
                hp = volumes.get(mounts.get("/dev/hugepages"), {})
                if hp.get("emptyDir", {}).get("medium", "").split("-")[0] != "HugePages":
                    out.append("%s: no emptyDir of medium HugePages at /dev/hugepages" % at)
                nic = NIC_RESOURCE[overlay]
                if str(requests.get(nic)) != "1" or str(limits.get(nic)) != "1":
                    out.append("%s: its NIC (%s) is not requested as 1 = its limit" % (at, nic))
                if "readinessProbe" not in c:
                    out.append("%s: no readiness probe" % at)
                groups = spec.get("securityContext", {}).get("supplementalGroups", [])
                if 10001 not in groups and sc.get("runAsGroup") != 10001:
                    out.append("%s: not in group linerate (10001), which its socket is given to" % at)
            if w["metadata"]["name"] == "linerate-controller":
                if "readinessProbe" not in c:
                    out.append("%s: no readiness probe" % at)
                if not {**spec.get("securityContext", {}), **sc}.get("runAsNonRoot"):
                    out.append("%s: may run as root" % at)
                mounts = {m["mountPath"] for m in c.get("volumeMounts", [])}
                if sc.get("readOnlyRootFilesystem") and "/tmp" not in mounts:
                    out.append("%s: a read-only root without /tmp (the OTG server's captures)" % at)
                if "fsGroup" not in spec.get("securityContext", {}):
                    out.append("%s: no fsGroup: its Secret's files (0440) unreadable by its user" % at)
        if engine or w["metadata"]["name"] == "linerate-controller":
            secret = "linerate-engine-tls" if engine else "linerate-controller-tls"
            mounted = {m["name"] for c in spec["containers"] for m in c.get("volumeMounts", [])}
            if not any(v.get("secret", {}).get("secretName") == secret and n in mounted for n, v in volumes.items()):
                out.append("%s: Secret %s not mounted" % (where, secret))
        networks = template["metadata"].get("annotations", {}).get("k8s.v1.cni.cncf.io/networks")
        if engine and (not networks or ("NetworkAttachmentDefinition", networks.split("@")[0]) not in kinds):
            out.append("%s: its Multus network %s is not among the rendered NetworkAttachmentDefinitions" % (where,
                                                                                                          networks))
    for o in objects:
        if o["kind"] not in ("Namespace",) and o["metadata"].get("namespace") != "linerate":
            out.append("%s/%s: not in namespace linerate (%s)" % (o["kind"], o["metadata"]["name"],
                                                                o["metadata"].get("namespace")))
    for s in named(objects, "StatefulSet"):
        # kubectl 1.20's kustomize turns a missing volumeClaimTemplates into a map the API refuses.
        if not isinstance(s["spec"].get("volumeClaimTemplates"), list):
            out.append("StatefulSet/%s: volumeClaimTemplates is not a list" % s["metadata"]["name"])
    out += engine_naming_problems(objects)
    return out


def engine_naming_problems(objects):
    """The engines' names: the headless Service their StatefulSet names, selecting them, and a
    location map entry per engine dialling that name."""
    out = []
    (engines,) = named(objects, "StatefulSet", "linerate-engine") or [None]
    if engines is None:
        return ["no StatefulSet linerate-engine"]
    namespace = engines["metadata"].get("namespace", "default")
    service = (named(objects, "Service", engines["spec"]["serviceName"]) or [None])[0]
    labels = engines["spec"]["template"]["metadata"]["labels"]
    if service is None or service["spec"].get("clusterIP") != "None":
        out.append("StatefulSet linerate-engine: its serviceName %s is not a headless Service of the render"
                   % engines["spec"]["serviceName"])
    elif any(labels.get(k) != v for k, v in service["spec"]["selector"].items()):
        out.append("Service %s: its selector does not select the engines" % service["metadata"]["name"])
    maps = [o for o in objects if o["kind"] == "ConfigMap" and o["metadata"]["name"].startswith("linerate-locations")]
    if len(maps) != 1:
        return out + ["%d location maps (ConfigMap linerate-locations-*)" % len(maps)]
    entries = json.loads(maps[0]["data"]["locations.json"])
    want = [{"location": "engine-%d" % i,
             "endpoint": "linerate-engine-%d.%s.%s.svc:7300" % (i, engines["spec"]["serviceName"], namespace)}
            for i in range(engines["spec"]["replicas"])]
    if entries != want:
        out.append("the location map %s is not one entry per engine %s" % (entries, want))
    return out


class KubernetesManifests(unittest.TestCase):
    def test_every_overlay_renders_and_keeps_every_rule(self):
        for overlay in ENGINE_CAPABILITIES:
            with self.subTest(overlay=overlay):
                objects = render(overlay)
                self.assertEqual(problems(objects, overlay), [])
                (engines,) = named(objects, "StatefulSet", "linerate-engine")
                engine = engines["spec"]["template"]["spec"]["containers"][0]
                self.assertEqual(engine["name"], "engine")
                pages = "hugepages-2Mi" if overlay == "sriov-2mi" else "hugepages-1Gi"
                self.assertEqual(engine["resources"]["limits"][pages], "2Gi")
                # ptp4l's folder of the node, where pmc's own socket goes too: shared, not read-only.
                ptp = [m for m in engine["volumeMounts"] if m["name"] == "ptp4l"]
                self.assertEqual(ptp, [{"mountPath": "/run/linerate-ptp", "name": "ptp4l"}]
                                 if overlay == "sriov-ptp" else [])
                self.assertEqual(engine.get("args"), ["--ptp", "/run/linerate-ptp/ptp4l"]
                                 if overlay == "sriov-ptp" else None)

    def test_the_suite_job_and_the_monitoring_fit_the_base(self):
        base = render("sriov")
        job = render("rfc2544", "jobs")
        (bench,) = named(job, "Job", "linerate-rfc2544")
        spec = bench["spec"]["template"]["spec"]
        # Its container kept to the rules as any, its ConfigMaps among the base's and its own.
        self.assertEqual([p for p in problems(job + [o for o in base if o["kind"] == "ConfigMap"], "sriov")
                          if "Job" in p], [])
        self.assertTrue(spec["securityContext"]["runAsNonRoot"])
        claims = {v["persistentVolumeClaim"]["claimName"] for v in spec["volumes"] if "persistentVolumeClaim" in v}
        self.assertEqual(claims, {m["metadata"]["name"] for m in named(job, "PersistentVolumeClaim")})
        # It dials the engines by the base's location map, whose name has no hash to follow.
        self.assertIn("linerate-locations", {v.get("configMap", {}).get("name") for v in spec["volumes"]})
        self.assertTrue(named(base, "ConfigMap", "linerate-locations"))
        monitoring = render("monitoring", ".")
        (monitor,) = named(monitoring, "ServiceMonitor")
        (service,) = named(base, "Service", "linerate-engine")
        self.assertTrue(all(service["metadata"]["labels"].get(k) == v
                            for k, v in monitor["spec"]["selector"]["matchLabels"].items()))
        self.assertIn(monitor["spec"]["endpoints"][0]["port"], [p["name"] for p in service["spec"]["ports"]])
        (dashboard,) = named(monitoring, "ConfigMap", "linerate-grafana-dashboard")
        self.assertEqual(dashboard["metadata"]["labels"]["grafana_dashboard"], "1")
        self.assertEqual(json.loads(dashboard["data"]["linerate-dashboard.json"])["uid"], "linerate")

    def test_each_rule_fails_on_a_manifest_broken_its_way(self):
        good = render("sriov")

        def broken(change):
            objects = copy.deepcopy(good)
            (engines,) = named(objects, "StatefulSet", "linerate-engine")
            change(objects, engines, engines["spec"]["template"]["spec"]["containers"][0])
            return problems(objects, "sriov")

        where = "StatefulSet/linerate-engine container engine"
        self.assertEqual(broken(lambda o, s, c: c["securityContext"].update(privileged=True)),
                         ["%s: privileged" % where])
        self.assertEqual(broken(lambda o, s, c: c["securityContext"]["capabilities"]["add"].append("SYS_ADMIN")),
                         ["%s: adds ['SYS_ADMIN'] (allowed here: ['IPC_LOCK'])" % where])
        self.assertEqual(broken(lambda o, s, c: c["resources"]["requests"].update(cpu="2")),
                         ["%s: cpu request 2 is not its limit 4" % where])
        self.assertEqual(broken(lambda o, s, c: [c["resources"][k].update(cpu="3500m") for k in ("requests", "limits")]),
                         ["%s: cpu 3500m is not whole CPUs (the static CPU manager gives none of its own)" % where])
        self.assertEqual(broken(lambda o, s, c: c["resources"]["requests"].pop("hugepages-1Gi")),
                         ["%s: hugepages {'hugepages-1Gi': '2Gi'} requested as {'hugepages-1Gi': None}: one size, "
                          "requested as its limit" % where])
        self.assertEqual(broken(lambda o, s, c: c.pop("readinessProbe")), ["%s: no readiness probe" % where])
        self.assertEqual(broken(lambda o, s, c: s["spec"]["template"]["spec"].pop("securityContext")),
                         ["%s: not in group linerate (10001), which its socket is given to" % where])
        self.assertEqual(broken(lambda o, s, c: s["spec"].update(volumeClaimTemplates={})),
                         ["StatefulSet/linerate-engine: volumeClaimTemplates is not a list"])
        self.assertEqual(broken(lambda o, s, c: named(o, "NetworkAttachmentDefinition")[0]["metadata"].pop(
            "namespace")), ["NetworkAttachmentDefinition/linerate-vf: not in namespace linerate (None)"])
        controller = copy.deepcopy(good)
        named(controller, "Deployment", "linerate-controller")[0]["spec"]["template"]["spec"].pop("securityContext")
        self.assertEqual(problems(controller, "sriov"),
                         ["Deployment/linerate-controller container controller: may run as root",
                          "Deployment/linerate-controller container controller: no fsGroup: its Secret's files (0440) "
                          "unreadable by its user"])
        controller = copy.deepcopy(good)
        (pod,) = [d["spec"]["template"]["spec"] for d in named(controller, "Deployment", "linerate-controller")]
        pod["containers"][0]["volumeMounts"] = [m for m in pod["containers"][0]["volumeMounts"]
                                                if m["mountPath"] != "/tmp"]
        self.assertEqual(problems(controller, "sriov"),
                         ["Deployment/linerate-controller container controller: a read-only root without /tmp (the OTG "
                          "server's captures)"])
        self.assertEqual(broken(lambda o, s, c: s["spec"]["template"]["spec"]["volumes"][-1]["secret"].update(
            secretName="other")), ["StatefulSet/linerate-engine: Secret linerate-engine-tls not mounted"])
        self.assertEqual(broken(lambda o, s, c: s["spec"]["selector"]["matchLabels"].update(
            {"app.kubernetes.io/name": "x"})),
            ["StatefulSet/linerate-engine: its selector {'app.kubernetes.io/name': 'x', 'app.kubernetes.io/part-of': "
             "'linerate'} does not select its pods "
             "{'app.kubernetes.io/name': 'linerate-engine', 'app.kubernetes.io/part-of': 'linerate'}"])
        self.assertEqual(broken(lambda o, s, c: s["spec"].update(replicas=3)),
                         ["the location map %s is not one entry per engine %s" % (
                             json.loads(named(good, "ConfigMap")[1]["data"]["locations.json"]),
                             [{"location": "engine-%d" % i,
                               "endpoint": "linerate-engine-%d.linerate-engine.linerate.svc:7300" % i}
                              for i in range(3)])])
        self.assertEqual(broken(lambda o, s, c: o.remove(named(o, "NetworkAttachmentDefinition")[0])),
                         ["StatefulSet/linerate-engine: its Multus network linerate-vf is not among the rendered "
                          "NetworkAttachmentDefinitions"])


if __name__ == "__main__":
    if not shutil.which("kubectl"):
        print("SKIP: needs kubectl (scripts/setup.sh installs Debian's kubernetes-client)")
        sys.exit(77)  # meson's skip: said, never a pass
    unittest.main(verbosity=2)
