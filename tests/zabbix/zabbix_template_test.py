"""The Zabbix side of `linerate optics watch` (docker/zabbix/): the template against Zabbix 6.0's
export schema as far as it can be checked offline (ui/include/classes/import/validators/
C60XmlValidator.php: the keys each level may and must have, the names of its constants,
strings only, uuids), its item keys against the agent's UserParameters and the items
`linerate optics zabbix` knows (value types and units included), its trigger expressions
against its own item prototypes; each rule shown failing on a template broken the way it
looks for. Then, with the linerate binary, the command on a fixture state file; and, where
zabbix_agentd is installed, the real agent running the UserParameters on that file
(`zabbix_agentd -t KEY`), its answers held to the template's preprocessing.

    python3 tests/zabbix/zabbix_template_test.py [build/control/linerate]
    (zabbix_agentd: Debian's zabbix-agent; without it the agent's part is skipped, saying so)
"""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ZABBIX_DIR = os.path.join(ROOT, "docker", "zabbix")
TEMPLATE = os.path.join(ZABBIX_DIR, "linerate-optics-template.yaml")
AGENT_CONF = os.path.join(ZABBIX_DIR, "linerate-optics.conf")
LINERATE = None  # argv[1]: the built binary

# Zabbix 6.0's export schema, the part this template can use: per level, the keys it may
# have, those it must, the lists under it (and their level), and the constants a key takes.
ITEM_TYPES = {"ZABBIX_PASSIVE", "TRAP", "SIMPLE", "INTERNAL", "ZABBIX_ACTIVE", "EXTERNAL", "ODBC", "IPMI", "SSH",
              "TELNET", "CALCULATED", "JMX", "SNMP_TRAP", "DEPENDENT", "HTTP_AGENT", "SNMP_AGENT", "SCRIPT"}
STEPS = {"MULTIPLIER", "RTRIM", "LTRIM", "TRIM", "REGEX", "BOOL_TO_DECIMAL", "OCTAL_TO_DECIMAL", "HEX_TO_DECIMAL",
         "SIMPLE_CHANGE", "CHANGE_PER_SECOND", "XMLPATH", "JSONPATH", "IN_RANGE", "MATCHES_REGEX",
         "NOT_MATCHES_REGEX", "CHECK_JSON_ERROR", "CHECK_XML_ERROR", "CHECK_REGEX_ERROR", "CHECK_NOT_SUPPORTED",
         "DISCARD_UNCHANGED", "DISCARD_UNCHANGED_HEARTBEAT", "JAVASCRIPT", "PROMETHEUS_PATTERN",
         "PROMETHEUS_TO_JSON", "CSV_TO_JSON", "STR_REPLACE", "XML_TO_JSON"}
# A discovery rule's preprocessing takes fewer: no CHECK_REGEX_ERROR among them.
DRULE_STEPS = {"REGEX", "XMLPATH", "JSONPATH", "NOT_MATCHES_REGEX", "CHECK_JSON_ERROR", "CHECK_XML_ERROR",
               "DISCARD_UNCHANGED_HEARTBEAT", "JAVASCRIPT", "PROMETHEUS_TO_JSON", "CSV_TO_JSON", "STR_REPLACE",
               "XML_TO_JSON"}
YES_NO = {"YES", "NO"}
TAG = {"keys": {"tag", "value"}, "required": {"tag"}}
STEP = {"keys": {"type", "parameters", "error_handler", "error_handler_params"}, "required": {"type", "parameters"},
        "constants": {"type": STEPS}, "string_lists": {"parameters"}}
DRULE_STEP = dict(STEP, constants={"type": DRULE_STEPS})
TRIGGER_PROTOTYPE = {
    "keys": {"uuid", "expression", "recovery_mode", "recovery_expression", "correlation_mode", "correlation_tag",
             "name", "event_name", "opdata", "url", "status", "discover", "priority", "description", "type",
             "manual_close", "dependencies", "tags"},
    "required": {"uuid", "expression", "name"},
    "constants": {"priority": {"NOT_CLASSIFIED", "INFO", "WARNING", "AVERAGE", "HIGH", "DISASTER"},
                  "manual_close": YES_NO, "status": {"ENABLED", "DISABLED"}, "type": {"SINGLE", "MULTIPLE"},
                  "recovery_mode": {"EXPRESSION", "RECOVERY_EXPRESSION", "NONE"}},
    "lists": {"tags": TAG}}
ITEM_PROTOTYPE = {
    "keys": {"uuid", "name", "type", "snmp_oid", "key", "delay", "history", "trends", "status", "discover",
             "value_type", "allowed_hosts", "units", "params", "ipmi_sensor", "description", "inventory_link",
             "valuemap", "logtimefmt", "preprocessing", "jmx_endpoint", "master_item", "timeout", "tags",
             "trigger_prototypes"},
    "required": {"uuid", "name", "key"},
    "constants": {"type": ITEM_TYPES, "value_type": {"FLOAT", "CHAR", "LOG", "UNSIGNED", "TEXT"},
                  "status": {"ENABLED", "DISABLED"}},
    "lists": {"preprocessing": STEP, "tags": TAG, "trigger_prototypes": TRIGGER_PROTOTYPE}}
DISCOVERY_RULE = {
    "keys": {"uuid", "name", "type", "snmp_oid", "key", "delay", "status", "allowed_hosts", "params", "ipmi_sensor",
             "filter", "lifetime", "description", "item_prototypes", "trigger_prototypes", "graph_prototypes",
             "host_prototypes", "jmx_endpoint", "master_item", "timeout", "lld_macro_paths", "preprocessing",
             "overrides"},
    "required": {"uuid", "name", "key"},
    "constants": {"type": ITEM_TYPES - {"CALCULATED", "SNMP_TRAP"}, "status": {"ENABLED", "DISABLED"}},
    "lists": {"item_prototypes": ITEM_PROTOTYPE, "trigger_prototypes": TRIGGER_PROTOTYPE, "preprocessing": DRULE_STEP}}
MACRO = {"keys": {"macro", "type", "value", "description"}, "required": {"macro"}}
TEMPLATE_LEVEL = {
    "keys": {"uuid", "template", "name", "description", "templates", "groups", "items", "discovery_rules",
             "httptests", "tags", "macros", "dashboards", "valuemaps"},
    "required": {"uuid", "template", "groups"},
    "lists": {"groups": {"keys": {"name"}, "required": {"name"}}, "discovery_rules": DISCOVERY_RULE, "tags": TAG,
              "macros": MACRO}}
EXPORT = {
    "keys": {"version", "date", "groups", "templates", "hosts", "triggers", "graphs", "media_types", "maps"},
    "required": {"version"},
    "lists": {"groups": {"keys": {"uuid", "name"}, "required": {"uuid", "name"}}, "templates": TEMPLATE_LEVEL}}

UUID = re.compile(r"^[0-9a-f]{32}$")
# A function's item in a 6.0 expression: /host/key, the key's [...] read whole.
ITEM_REF = re.compile(r"/([^/]+)/([A-Za-z0-9_.-]+(?:\[[^\]]*\])?)")
LLD_MACRO = re.compile(r"\{#[A-Z0-9_.]+\}")
USER_MACRO = re.compile(r"\{\$[A-Z0-9_.]+(?::[^}]*)?\}")
# The units a numeric item of this template may carry.
UNITS = {"", "bps", "/s", "°C", "V", "mA", "dBm", "dB"}
# What each discovery gives its prototypes.
DISCOVERED = {"linerate.optics.discover[ports]": {"{#PORT}"},
              "linerate.optics.discover[lanes]": {"{#PORT}", "{#LANE}"}}
# The alerts the template must raise: (the item, how its trigger compares).
ALERTS = [("lane.rx_power_margin_db", r"^last\(.*\)<\{\$LINERATE\.OPTICS\.RX_MARGIN\.MIN\}$"),
          ("module.alarm_flags", r"^last\(.*\)>0$"), ("module.warning_flags", r"^last\(.*\)>0$"),
          ("fec.uncorrectable_total", r"^change\(.*\)>0$"), ("link.flaps", r"^change\(.*\)>0$"),
          ("port.current", r"^last\(.*\)=0$")]


def walk(node, level, where, out):
    """Every way `node` leaves `level` of the schema, one line each, into `out`."""
    if not isinstance(node, dict):
        out.append("%s: not a mapping" % where)
        return
    for key, value in node.items():
        at = "%s.%s" % (where, key)
        if key not in level["keys"]:
            out.append("%s: not a key of the 6.0 schema here" % at)
        elif key in level.get("lists", {}):
            if not isinstance(value, list):
                out.append("%s: not a list" % at)
                continue
            for i, child in enumerate(value):
                walk(child, level["lists"][key], "%s[%d]" % (at, i), out)
        elif key in level.get("string_lists", set()):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                out.append("%s: not a list of strings" % at)
        elif key in ("filter", "valuemap", "master_item"):
            continue  # mappings this template does not use
        elif not isinstance(value, str):
            out.append("%s: %r is not a string (quote it)" % (at, value))
        elif value not in level.get("constants", {}).get(key, {value}):
            out.append("%s: %r is not one of %s" % (at, value, sorted(level["constants"][key])))
    for key in sorted(level["required"] - set(node)):
        out.append("%s: %s missing" % (where, key))


def uuid_problems(node, seen, out, where="zabbix_export"):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "uuid":
                if not isinstance(value, str) or not UUID.match(value):
                    out.append("%s.uuid: %r is not 32 lowercase hex digits" % (where, value))
                elif value in seen:
                    out.append("%s.uuid: %s also at %s" % (where, value, seen[value]))
                else:
                    seen[value] = where
            else:
                uuid_problems(value, seen, out, "%s.%s" % (where, key))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            uuid_problems(child, seen, out, "%s[%d]" % (where, i))


def user_parameters(conf_text):
    """{key: command} of the agent's config, e.g. {'linerate.optics.get[*]': 'linerate optics ...'}."""
    out = {}
    for line in conf_text.splitlines():
        m = re.match(r"^UserParameter=([^,]+),(.*)$", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def key_parts(key):
    """'linerate.optics.get[{#PORT},link.up]' -> ('linerate.optics.get', ['{#PORT}', 'link.up'])."""
    m = re.match(r"^([^\[]+)(?:\[(.*)\])?$", key)
    return m.group(1), (m.group(2).split(",") if m.group(2) is not None else [])


def prototype_problems(rule, items, params, where):
    """How the rule's item prototypes leave the agent's keys and the command's items."""
    out = []
    macros = DISCOVERED.get(rule.get("key"))
    if macros is None:
        return ["%s: %s is no discovery `linerate optics zabbix discover` answers" % (where, rule.get("key"))]
    if key_parts(rule["key"])[0] + "[*]" not in params:
        out.append("%s: no UserParameter for %s" % (where, rule["key"]))
    if not any(s.get("type") == "JAVASCRIPT" and "linerate: " in "".join(s.get("parameters", []))
               for s in rule.get("preprocessing", [])):
        out.append("%s: no JAVASCRIPT step making the command's \"linerate: ...\" an unsupported rule" % where)
    for i, p in enumerate(rule.get("item_prototypes", [])):
        at = "%s.item_prototypes[%d] (%s)" % (where, i, p.get("key"))
        base, args = key_parts(p.get("key", ""))
        if base + "[*]" not in params:
            out.append("%s: no UserParameter for %s" % (at, base))
        if items is None:
            continue  # without the binary, its items are not known here
        item = items.get(args[1]) if base == "linerate.optics.get" and len(args) in (2, 3) else None
        if item is None:
            out.append("%s: not an item `linerate optics zabbix get` knows" % at)
            continue
        wanted = ["{#PORT}", item["name"]] + (["{#LANE}"] if item["lane"] else [])
        if args != wanted:
            out.append("%s: its key's parameters should be %s" % (at, ",".join(wanted)))
        if not set(LLD_MACRO.findall(p["key"] + p.get("name", ""))) <= macros:
            out.append("%s: uses LLD macros its discovery does not give (%s)" % (at, ", ".join(sorted(macros))))
        if p.get("value_type", "UNSIGNED") != item["value_type"]:
            out.append("%s: value_type %s, the command answers %s" % (at, p.get("value_type", "UNSIGNED (default)"),
                                                                     item["value_type"]))
        if p.get("units", "") != item["units"] or p.get("units", "") not in UNITS:
            out.append("%s: units %r, the command's are %r" % (at, p.get("units", ""), item["units"]))
        if item["value_type"] == "CHAR" and p.get("trends") != "0":
            out.append("%s: a CHAR item keeps no trends (trends: '0')" % at)
        steps = p.get("preprocessing", [])
        if not steps or steps[0].get("type") != "CHECK_REGEX_ERROR" or not re.search(
                steps[0]["parameters"][0], "linerate: eth2: no link state (the driver gave none)"):
            out.append("%s: its first step is not CHECK_REGEX_ERROR of the command's \"linerate: ...\"" % at)
    return out


def trigger_problems(template, rule, where):
    """How the rule's trigger prototypes refer to what is not there."""
    out = []
    keys = {p["key"] for p in rule.get("item_prototypes", [])}
    defined = {m["macro"] for m in template.get("macros", [])}
    triggers = [(p, t) for p in rule.get("item_prototypes", []) for t in p.get("trigger_prototypes", [])]
    triggers += [(None, t) for t in rule.get("trigger_prototypes", [])]
    for i, (owner, t) in enumerate(triggers):
        at = "%s trigger %r" % (where, t.get("name"))
        refs = ITEM_REF.findall(t.get("expression", ""))
        if not refs:
            out.append("%s: its expression names no item" % at)
        for host, key in refs:
            if host != template["template"]:
                out.append("%s: /%s/ is not this template (%s)" % (at, host, template["template"]))
            if key not in keys:
                out.append("%s: %s is no item prototype of its discovery rule" % (at, key))
        if owner is not None and owner["key"] not in {k for _, k in refs}:
            out.append("%s: listed under %s, which its expression does not name" % (at, owner["key"]))
        for macro in USER_MACRO.findall(t.get("expression", "") + t.get("name", "")):
            if macro.split(":")[0].rstrip("}") + "}" not in defined:
                out.append("%s: %s is not a macro of the template" % (at, macro))
    return out


def alert_problems(template):
    out = []
    triggers = [(key_parts(key)[1][1:2], t["expression"]) for r in template.get("discovery_rules", [])
                for p in r.get("item_prototypes", []) for t in p.get("trigger_prototypes", [])
                for _, key in ITEM_REF.findall(t.get("expression", ""))[:1]]
    for item, shape in ALERTS:
        if not any(named == [item] and re.match(shape, expression) for named, expression in triggers):
            out.append("no trigger on %s of the shape %s" % (item, shape))
    return out


def problems(doc, conf_text, items):
    """Every rule the template `doc` breaks, one line each (`items`: the command's, by name)."""
    out = []
    if not isinstance(doc, dict) or "zabbix_export" not in doc:
        return ["no zabbix_export at the top"]
    export = doc["zabbix_export"]
    walk(export, EXPORT, "zabbix_export", out)
    if export.get("version") != "6.0":
        out.append("zabbix_export.version: %r, not '6.0'" % export.get("version"))
    uuid_problems(export, {}, out)
    params = user_parameters(conf_text)
    groups = {g.get("name") for g in export.get("groups", [])}
    covered = set()
    for template in export.get("templates", []):
        for g in template.get("groups", []):
            if g.get("name") not in groups:
                out.append("template %s: group %s is not among the export's groups" % (template["template"], g))
        for j, rule in enumerate(template.get("discovery_rules", [])):
            where = "discovery_rules[%d] (%s)" % (j, rule.get("key"))
            out += prototype_problems(rule, items, params, where)
            out += trigger_problems(template, rule, where)
            covered |= {key_parts(p["key"])[1][1] for p in rule.get("item_prototypes", [])
                        if len(key_parts(p["key"])[1]) > 1}
        out += alert_problems(template)
    for name in sorted(set(items or []) - covered):
        out.append("no item prototype for the command's item %s" % name)
    return out


def command_items():
    out = subprocess.run([LINERATE, "--json", "optics", "zabbix", "items"], capture_output=True, text=True,
                         check=True)
    return {i["name"]: i for i in json.loads(out.stdout)}


def fixture_state(time_s):
    """A state file of the watch: eth2 read in full (a QSFP28, two lanes, FEC), eth3 without FEC
    statistics or module."""
    monitors = [
        {"quantity": "temperature", "value": 35.5, "unit": "C", "alarm_flag": False, "warning_flag": False},
        {"quantity": "voltage", "value": 3.29, "unit": "V", "alarm_flag": False, "warning_flag": False},
        {"quantity": "bias", "lane": 1, "value": 6.5, "unit": "mA", "alarm_flag": False, "warning_flag": False},
        {"quantity": "tx_power", "lane": 1, "value": 0.55, "unit": "mW", "alarm_flag": False, "warning_flag": False},
        {"quantity": "rx_power", "lane": 1, "value": 0.6, "unit": "mW", "alarm_flag": False, "warning_flag": False},
        {"quantity": "rx_power", "lane": 2, "value": 0.05, "unit": "mW", "alarm_flag": False, "warning_flag": True}]
    module = {"type": "QSFP28", "vendor": "ACME OPTICS", "part": "QSFP28-SR4", "revision": "A0", "serial": "QSN42",
              "changes": 0, "monitors": monitors,
              "thresholds": {"rx_power": {"unit": "mW", "high_alarm": 3.4674, "high_warning": 1.7378,
                                          "low_warning": 0.0708, "low_alarm": 0.0355}}}
    return {"time": time_s, "interval_s": 10, "ports": [
        {"port": "eth2", "current": True, "source": "netdev", "time": time_s,
         "link": {"up": True, "speed_bps": 50000000000, "flaps": 3}, "module": module,
         "fec": {"corrected_codewords": 123, "uncorrectable_codewords": 4, "corrected_per_second": 12.5,
                 "pre_fec_ber": 2.5e-9, "pre_fec_ber_method": "corrected_bits"},
         "unsupported": {}, "problems": []},
        {"port": "eth3", "current": True, "source": "netdev", "time": time_s,
         "link": {"up": True, "speed_bps": 25000000000, "flaps": 0}, "module": None, "fec": {},
         "unsupported": {"FEC statistics": "Operation not supported"}, "problems": []}]}


# What the agent and the command answer for the fixture: (item key's parameters, text).
ANSWERS = [
    (["eth2", "port.current"], "1"), (["eth2", "link.up"], "1"), (["eth2", "link.speed"], "50000000000"),
    (["eth2", "link.flaps"], "3"), (["eth2", "fec.uncorrectable_total"], "4"),
    (["eth2", "fec.corrected_per_second"], "12.5"), (["eth2", "fec.pre_fec_ber"], "2.5e-09"),
    (["eth2", "module.serial"], "QSN42"), (["eth2", "module.temperature"], "35.5"),
    (["eth2", "module.alarm_flags"], "0"), (["eth2", "module.warning_flags"], "1"),
    (["eth2", "lane.rx_power_dbm", "1"], "-2.22"),         # 10 log10(0.6 mW)
    (["eth2", "lane.rx_power_margin_db", "2"], "-1.51"),   # 10 log10(0.05) - 10 log10(0.0708)
    (["eth2", "lane.tx_power_dbm", "1"], "-2.6"), (["eth2", "lane.bias_ma", "1"], "6.5")]
MISSING = [
    (["eth3", "fec.corrected_per_second"],
     "linerate: eth3: no FEC corrected rate (the driver lacks FEC statistics: Operation not supported)"),
    (["eth3", "module.serial"], "linerate: eth3: no module read (no module in the cage, or none whose EEPROM the "
                                "driver could read)"),
    (["eth9", "link.up"], "linerate: eth9: not a port of the watch (its ports: eth2, eth3)")]


class StateDir:
    """A temporary --dir holding `state` as watch.json."""

    def __init__(self, state):
        self.path = tempfile.mkdtemp(prefix="lr-zabbix-")
        with open(os.path.join(self.path, "watch.json"), "w") as f:
            f.write(state if isinstance(state, str) else json.dumps(state))

    def __enter__(self):
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path)


class TemplateTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(TEMPLATE) as f:
            cls.doc = yaml.safe_load(f)
        with open(AGENT_CONF) as f:
            cls.conf = f.read()
        cls.items = command_items() if LINERATE else None

    def items_or_skip(self):
        if self.items is None:
            self.skipTest("no linerate binary given: the template's items are not held to the command's")
        return self.items

    def test_the_template_keeps_every_rule(self):
        # Without the binary, all but what it says of its items.
        self.assertEqual(problems(self.doc, self.conf, self.items), [])

    def broken(self, change):
        doc = copy.deepcopy(self.doc)
        change(doc["zabbix_export"]["templates"][0])
        return problems(doc, self.conf, self.items)

    def assert_found(self, found, wanted):
        self.assertTrue(any(wanted in line for line in found), "%r not in %s" % (wanted, found))

    def test_a_repeated_or_uppercase_uuid(self):
        def repeat(t):
            t["discovery_rules"][0]["item_prototypes"][1]["uuid"] = t["discovery_rules"][0]["item_prototypes"][0]["uuid"]
            t["discovery_rules"][1]["uuid"] = t["discovery_rules"][1]["uuid"].upper()
        found = self.broken(repeat)
        self.assert_found(found, "also at")
        self.assert_found(found, "is not 32 lowercase hex digits")

    def test_a_key_or_constant_of_another_version(self):
        def newer(t):
            t["discovery_rules"][0]["item_prototypes"][0]["value_type"] = "BINARY"
            t["discovery_rules"][0]["item_prototypes"][0]["delay"] = 60
            t["discovery_rules"][0]["preprocessing"][0]["type"] = "CHECK_REGEX_ERROR"
        found = self.broken(newer)
        self.assert_found(found, "'BINARY' is not one of")
        self.assert_found(found, "60 is not a string")
        self.assert_found(found, "'CHECK_REGEX_ERROR' is not one of")
        doc = copy.deepcopy(self.doc)
        doc["zabbix_export"]["template_groups"] = doc["zabbix_export"].pop("groups")  # 6.2's name
        self.assert_found(problems(doc, self.conf, self.items), "template_groups: not a key")

    def test_an_item_the_command_does_not_know(self):
        self.items_or_skip()
        def unknown(t):
            t["discovery_rules"][0]["item_prototypes"][1]["key"] = "linerate.optics.get[{#PORT},link.state]"
            t["discovery_rules"][1]["item_prototypes"][0]["key"] = "linerate.optics.get[{#PORT},lane.rx_power_dbm]"
            t["discovery_rules"][1]["item_prototypes"][1]["value_type"] = "UNSIGNED"
        found = self.broken(unknown)
        self.assert_found(found, "not an item `linerate optics zabbix get` knows")
        self.assert_found(found, "its key's parameters should be {#PORT},lane.rx_power_dbm,{#LANE}")
        self.assert_found(found, "value_type UNSIGNED, the command answers FLOAT")
        self.assert_found(found, "no item prototype for the command's item link.up")

    def test_a_key_without_user_parameter(self):
        found = problems(self.doc, self.conf.replace("UserParameter=linerate.optics.get", "#"), self.items)
        self.assert_found(found, "no UserParameter for linerate.optics.get")

    def test_a_trigger_on_an_item_that_is_not_there(self):
        def dangling(t):
            trigger = t["discovery_rules"][0]["item_prototypes"][0]["trigger_prototypes"][0]
            trigger["expression"] = "last(/Linerate optics/linerate.optics.get[{#PORT},port.curent])=0"
            t["discovery_rules"][1]["item_prototypes"][3]["trigger_prototypes"][0]["expression"] = \
                "last(/Other/linerate.optics.get[{#PORT},link.up])<{$NOT.DEFINED}"
        found = self.broken(dangling)
        self.assert_found(found, "port.curent] is no item prototype of its discovery rule")
        self.assert_found(found, "/Other/ is not this template")
        self.assert_found(found, "{$NOT.DEFINED} is not a macro of the template")
        self.assert_found(found, "no trigger on port.current")


def run_command(args, env_dir=None):
    env = dict(os.environ)
    env.pop("LINERATE_OPTICS_DIR", None)
    if env_dir:
        env["LINERATE_OPTICS_DIR"] = env_dir
    return subprocess.run([LINERATE, "optics", "zabbix"] + args, capture_output=True, text=True, env=env, timeout=30)


class CommandTest(unittest.TestCase):
    def setUp(self):
        if not LINERATE:
            self.skipTest("no linerate binary given")

    def test_values_and_their_absence(self):
        with StateDir(fixture_state(time.time())) as d:
            for params, text in ANSWERS:
                out = run_command(["get", "--dir", d] + params)
                self.assertEqual((out.returncode, out.stdout, out.stderr), (0, text + "\n", ""), params)
            for params, text in MISSING:
                out = run_command(["get", "--dir", d] + params)
                self.assertEqual((out.returncode, out.stdout, out.stderr), (1, "", text + "\n"), params)
            out = run_command(["discover", "lanes"], env_dir=d)
            self.assertEqual(json.loads(out.stdout), [{"{#PORT}": "eth2", "{#LANE}": "1"},
                                                      {"{#PORT}": "eth2", "{#LANE}": "2"}])

    def test_a_watch_that_is_not_running(self):
        with StateDir(fixture_state(time.time() - 100)) as d:
            out = run_command(["get", "--dir", d, "eth2", "link.up"])
            self.assertEqual((out.returncode, out.stdout), (1, ""))
            self.assertRegex(out.stderr, r"^linerate: %s/watch.json: stale: written 10\d s ago, more than 3 "
                                         r"intervals of 10 s " % re.escape(d))
            shutil.rmtree(d)
            os.mkdir(d)
            out = run_command(["discover", "ports", "--dir", d])
            self.assertEqual(out.stderr, "linerate: %s/watch.json: cannot read it (No such file or directory): is "
                                         "`linerate optics watch` running, with this --dir?\n" % d)

    def test_a_file_that_is_not_a_state_file(self):
        with StateDir('{"time": 1, "interval_s": 10, "ports": [{"port": 7}') as d:
            out = run_command(["get", "--dir", d, "eth2", "link.up"])
            self.assertEqual((out.returncode, out.stdout), (1, ""))
            self.assertTrue(out.stderr.startswith("linerate: %s/watch.json: not a state file of `linerate optics "
                                                  "watch`: not JSON: [json.exception.parse_error.101]" % d),
                            out.stderr)


def agent_answer(conf, key):
    """(type, text) of `zabbix_agentd -t KEY`: ('t', '1'), or ('m', 'ZBX_NOTSUPPORTED...')."""
    out = subprocess.run(["zabbix_agentd", "-c", conf, "-t", key], capture_output=True, text=True, timeout=60)
    m = re.match(r"^%s\s+\[(\w)\|(.*)\]\s*$" % re.escape(key), out.stdout, re.S)
    if not m:
        raise AssertionError("zabbix_agentd -t %s answered %r (stderr %r)" % (key, out.stdout, out.stderr))
    return m.group(1), m.group(2)


def server_view(doc, key, text):
    """What the server makes of an answer to `key`, by the template's preprocessing and value
    type: ('value', text) or ('unsupported', reason)."""
    item = key_parts(key)[1][1]
    prototypes = [p for rule in doc["zabbix_export"]["templates"][0]["discovery_rules"]
                  for p in rule["item_prototypes"] if key_parts(p["key"])[1][1] == item]
    if not prototypes:
        raise AssertionError("no item prototype of the template matches %s" % key)
    pattern, output = prototypes[0]["preprocessing"][0]["parameters"]
    m = re.search(pattern, text)
    if m:
        return "unsupported", output.replace("\\0", m.group(0))
    value_type = prototypes[0].get("value_type", "UNSIGNED")
    if value_type == "UNSIGNED" and not re.fullmatch(r"\d+", text):
        return "unsupported", "not an unsigned number: %r" % text
    if value_type == "FLOAT":
        float(text)  # Zabbix reads the same forms: 12.5, -2.22, 2.5e-09
    return "value", text


@unittest.skipUnless(shutil.which("zabbix_agentd"), "zabbix_agentd is not installed: the agent's part is skipped "
                     "(Debian: apt-get install zabbix-agent)")
class AgentTest(unittest.TestCase):
    def setUp(self):
        if not LINERATE:
            self.skipTest("no linerate binary given")
        with open(TEMPLATE) as f:
            self.doc = yaml.safe_load(f)

    def agent_conf(self, tmp, state_dir):
        """The agent's config: the UserParameters as shipped, `linerate` as the binary under test
        and `--dir` added where linerate-optics.conf says to add it."""
        with open(AGENT_CONF) as f:
            params = re.sub(r"\blinerate optics zabbix (discover|get) ",
                            lambda m: "'%s' optics zabbix %s --dir '%s' " % (LINERATE, m.group(1), state_dir),
                            f.read())
        included = os.path.join(tmp, "linerate-optics.conf")
        with open(included, "w") as f:
            f.write(params)
        conf = os.path.join(tmp, "zabbix_agentd.conf")
        with open(conf, "w") as f:
            f.write("LogType=console\nAllowRoot=1\nTimeout=10\nInclude=%s\n" % included)
        return conf

    def test_the_agent_answers_from_the_state_file(self):
        tmp = tempfile.mkdtemp(prefix="lr-zabbix-agent-")
        try:
            with StateDir(fixture_state(time.time())) as d:
                conf = self.agent_conf(tmp, d)
                kind, text = agent_answer(conf, "linerate.optics.discover[ports]")
                self.assertEqual(json.loads(text), [{"{#PORT}": "eth2"}, {"{#PORT}": "eth3"}])
                for params, want in ANSWERS:
                    key = "linerate.optics.get[%s]" % ",".join(params)
                    self.assertEqual(agent_answer(conf, key), ("t", want), key)
                    self.assertEqual(server_view(self.doc, key, want), ("value", want), key)
                # An empty LANE, as the key writes it, is no lane: the item of the port.
                self.assertEqual(agent_answer(conf, "linerate.optics.get[eth2,link.up,]"), ("t", "1"))
                for params, reason in MISSING:
                    key = "linerate.optics.get[%s]" % ",".join(params)
                    kind, text = agent_answer(conf, key)
                    self.assertEqual((kind, text), ("t", reason), key)
                    # The agent passes the text; the template's first step makes it unsupported, with it.
                    self.assertEqual(server_view(self.doc, key, text), ("unsupported", reason), key)
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        LINERATE = os.path.abspath(sys.argv.pop(1))
    result = unittest.main(exit=False, verbosity=2).result
    ran = result.testsRun - len(result.skipped)
    sys.exit(77 if ran == 0 else (0 if result.wasSuccessful() else 1))
