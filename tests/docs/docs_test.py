"""The documentation against the tree (a meson test: `docs`).

Five checks, each run on the tree and shown failing on a small tree made to break it:
- every profile key the loader accepts is in docs/reference/profile.md. The keys come from
  the readers' own source: a table reader refuses every key nobody asked for, so the keys are
  the string literals its getters are asked for (TableReader's methods whose first parameter
  is `const char* key`, and every helper or lambda in a reader file that takes a
  `const char* key` and passes it on), and the literals of `for (const char* k : {...})`
  loops over keys. Reader files: every .cpp under lib/profile/ and control/ that names
  TableReader (the suites' own sections are read in control/);
- every JSON-RPC method the data plane registers (`d.add("name", ...)`, `add_async`, and the
  protocol 1 names kept by `alias`) is in docs/reference/rpc.md;
- every exit code of control/command/exit_codes.hpp is a row of docs/reference/exit-codes.md
  that names the constant and its value;
- every relative link and image in README.md, config/README.md and docs/**/*.md reaches a
  file, and a `#anchor` into a Markdown file names one of its headings (GitHub's slugs);
- every path of the repository a page names in a code span (`lib/views/`, `scripts/bench.sh 5 5`:
  its first word, under one of TREE_FOLDERS) exists: a file moved leaves no page behind.
A name counts as documented where it stands in a code span (`like_this`) of the page."""
import os
import re
import sys
import unicodedata
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from temp_tree import TempTreeCase  # noqa: E402 (after its path)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PROFILE_REFERENCE = os.path.join("docs", "reference", "profile.md")
RPC_REFERENCE = os.path.join("docs", "reference", "rpc.md")
EXIT_CODE_REFERENCE = os.path.join("docs", "reference", "exit-codes.md")
TABLE_READER = os.path.join("lib", "profile", "table_reader.hpp")
EXIT_CODES = os.path.join("control", "command", "exit_codes.hpp")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "catch"}
KEY_LITERAL = re.compile(r'^"([A-Za-z_][A-Za-z0-9_]*)"$')


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def without_comments(text):
    """C++ text without // comments (a // inside a string literal is kept)."""
    out = []
    for line in text.split("\n"):
        in_string, i = False, 0
        while i < len(line):
            c = line[i]
            if c == "\\" and in_string:
                i += 2
                continue
            if c == '"':
                in_string = not in_string
            elif not in_string and line.startswith("//", i):
                line = line[:i]
                break
            i += 1
        out.append(line)
    return "\n".join(out)


def split_args(text, start, angles=False):
    """The arguments of the call whose '(' is at text[start - 1]: top-level commas split them
    (with `angles`, a parameter list's: commas inside <...> do not)."""
    opening, closing = ("([{<", ")]}>") if angles else ("([{", ")]}")
    args, depth, i, current = [], 0, start, []
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            current.append(text[i:j + 1])
            i = j + 1
            continue
        if c in opening:
            depth += 1
        elif c in closing:
            if depth == 0 and c == ")":
                args.append("".join(current).strip())
                return args
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    return args


def key_parameters(text):
    """{function or lambda name: index of its `const char* key` parameter} declared in text."""
    found = {}
    declarations = [(m.group(1), m.group(2)) for m in re.finditer(r"\b(\w+)\s*\(([^()]*)\)\s*(?:const\s*)?(?:->[^{;]*)?\{", text)]
    declarations += [(m.group(1), m.group(2)) for m in re.finditer(r"\bauto\s+(\w+)\s*=\s*\[[^\]]*\]\s*\(([^()]*)\)", text)]
    for name, params in declarations:
        if name in KEYWORDS:
            continue
        for index, param in enumerate(split_args(params + ")", 0, angles=True)):
            if re.fullmatch(r"const\s+char\s*\*\s*key", param):
                found[name] = index
    return found


def loop_body(text, start):
    """The statement after a loop's head at text[start:]: a braced block, or up to its ';'."""
    i = start
    while i < len(text) and text[i].isspace():
        i += 1
    if i < len(text) and text[i] == "{":
        depth = 0
        for j in range(i, len(text)):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            if depth == 0:
                return text[i:j + 1]
    end = text.find(";", i)
    return text[i:] if end < 0 else text[i:end + 1]


def reader_files(root):
    for top in (os.path.join("lib", "profile"), "control"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                path = os.path.join(folder, name)
                if name.endswith(".cpp") and "TableReader" in read(path):
                    yield path


def profile_keys(root):
    """{key: the first file that reads it} for every key the profile's readers accept."""
    getters = key_parameters(without_comments(read(os.path.join(root, TABLE_READER))))
    texts = {path: without_comments(read(path)) for path in reader_files(root)}
    for text in texts.values():
        getters.update(key_parameters(text))
    keys = {}
    call = re.compile(r"\b(%s)\s*(?:<[^;(){}]*>)?\s*\(" % "|".join(sorted(getters)))
    for path, text in texts.items():
        where = os.path.relpath(path, root)
        for m in call.finditer(text):
            args = split_args(text, m.end())
            index = getters[m.group(1)]
            literal = KEY_LITERAL.match(args[index]) if index < len(args) else None
            if literal:
                keys.setdefault(literal.group(1), where)
        arrays = {m.group(1): m.group(2) for m in
                  re.finditer(r"\b(\w+)\s*(?:\[\])?\s*=?\s*\{((?:\s*\"[^\"]*\"\s*,?)+)\}", text)}
        for m in re.finditer(r"for\s*\(\s*const\s+char\s*\*\s*(\w+)\s*:\s*(\{[^}]*\}|\w+)\s*\)", text):
            if not re.search(r"\b(%s)\s*(?:<[^;(){}]*>)?\s*\(\s*%s\s*[,)]" % ("|".join(getters), m.group(1)),
                             loop_body(text, m.end())):
                continue  # a loop over names that are not keys (test or case names)
            items = m.group(2) if m.group(2).startswith("{") else arrays.get(m.group(2), "")
            for literal in re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', items):
                keys.setdefault(literal, where)
    return keys


def rpc_methods(root):
    """{method: file} for every method the data plane's dispatcher is given, aliases included."""
    methods = {}
    folder = os.path.join(root, "dataplane", "mgmt")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".cpp"):
            text = without_comments(read(os.path.join(folder, name)))
            for m in re.finditer(r"\.\s*(?:add|add_async|alias)\s*\(\s*\"([^\"]+)\"", text):
                methods.setdefault(m.group(1), os.path.join("dataplane", "mgmt", name))
    return methods


def exit_codes(root):
    """[(constant, value)] of exit_codes.hpp."""
    text = without_comments(read(os.path.join(root, EXIT_CODES)))
    return [(m.group(1), int(m.group(2))) for m in re.finditer(r"constexpr\s+int\s+(kExit\w+)\s*=\s*(\d+)\s*;", text)]


def code_words(markdown):
    """Every name in the page's code spans and code blocks."""
    words = set()
    for span in re.findall(r"```.*?```|`[^`\n]+`", markdown, re.S):
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", span))
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span))
    return words


def undocumented(names, markdown):
    words = code_words(markdown)
    return sorted(n for n in names if n not in words)


def missing_exit_codes(codes, markdown):
    """The (constant, value) pairs no table row names with its value."""
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in markdown.split("\n") if line.lstrip().startswith("|")]
    missing = []
    for name, value in codes:
        if not any("`%s`" % name in " ".join(row) and str(value) in row for row in rows):
            missing.append((name, value))
    return missing


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    kept = [c for c in text if c.isalnum() or c in "-_ " or unicodedata.category(c).startswith("M")]
    return "".join(kept).replace(" ", "-")


def anchors(markdown):
    seen, out = {}, set()
    for line in re.sub(r"```.*?```", "", markdown, flags=re.S).split("\n"):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def links(markdown):
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    text = re.sub(r"`[^`\n]+`", "code", text)
    return LINK.findall(text)


def markdown_files(root):
    files = [os.path.join(root, "README.md"), os.path.join(root, "config", "README.md")]
    for folder, _, names in os.walk(os.path.join(root, "docs")):
        files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    return [f for f in files if os.path.exists(f)]


def broken_links(root, files):
    """['page: target (why)'] for every relative link that does not arrive."""
    broken = []
    for page in files:
        text = read(page)
        for target in links(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, file:
                continue
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = "%s: %s" % (os.path.relpath(page, root), target)
            if not os.path.exists(dest):
                broken.append(where + " (no such file)")
            elif anchor and dest.endswith(".md") and anchor not in anchors(read(dest)):
                broken.append(where + " (no such heading)")
    return broken


# The repository's top-level folders whose paths a page names (build/ holds what is built).
TREE_FOLDERS = ("lib", "dataplane", "control", "config", "scripts", "tests", "docs", "docker", "deploy", ".ci")


def missing_paths(root, files):
    """['page: path'] for every repository path named in a code span that does not exist."""
    missing = []
    for page in files:
        text = re.sub(r"```.*?```", "", read(page), flags=re.S)
        for span in re.findall(r"`([^`\n]+)`", text):
            words = span.split()
            path = words[0].rstrip(".,:;)") if words else ""
            if path.split("/")[0] not in TREE_FOLDERS or "/" not in path or re.search(r"[*{}<>$]|\.\.\.|[A-Z]{2}", path):
                continue
            if not os.path.exists(os.path.join(root, path)):
                missing.append("%s: %s" % (os.path.relpath(page, root), path))
    return missing


class TheTree(unittest.TestCase):
    def test_every_profile_key_is_documented(self):
        keys = profile_keys(ROOT)
        self.assertGreater(len(keys), 150, "the key extraction found too few keys: %s" % sorted(keys))
        for known in ("lcores", "rx_queues", "frame_size", "kmin", "trial_duration", "age_time", "target_ber", "dut"):
            self.assertIn(known, keys)
        missing = undocumented(keys, read(os.path.join(ROOT, PROFILE_REFERENCE)))
        self.assertEqual(missing, [], "keys read by %s and missing from %s" %
                         ({k: keys[k] for k in missing}, PROFILE_REFERENCE))

    def test_every_rpc_method_is_documented(self):
        methods = rpc_methods(ROOT)
        self.assertGreater(len(methods), 40, sorted(methods))
        self.assertIn("traffic.start", methods)
        missing = undocumented(methods, read(os.path.join(ROOT, RPC_REFERENCE)))
        self.assertEqual(missing, [], "methods missing from %s" % RPC_REFERENCE)

    def test_every_exit_code_is_documented(self):
        codes = exit_codes(ROOT)
        self.assertGreater(len(codes), 5, codes)
        self.assertEqual(missing_exit_codes(codes, read(os.path.join(ROOT, EXIT_CODE_REFERENCE))), [])

    def test_every_link_arrives(self):
        files = markdown_files(ROOT)
        self.assertGreater(len(files), 10, files)
        self.assertEqual(broken_links(ROOT, files), [])

    def test_every_path_named_exists(self):
        self.assertEqual(missing_paths(ROOT, markdown_files(ROOT)), [])


class EachCheckFails(TempTreeCase):
    """Each checker on a small tree or text made to break it reports exactly what is wrong."""

    def test_a_key_missing_from_the_reference(self):
        self.write(TABLE_READER, "class TableReader {\n  const toml::node* find(const char* key) { return nullptr; }\n"
                                 "  std::optional<bool> boolean(const char* key) { return find(key); }\n"
                                 "  template <typename T> std::optional<T> integer(const char* key, int64_t min) {}\n"
                                 "  void fail(const toml::node* at, const std::string& key, const std::string& why) {}\n};\n")
        self.write("lib/profile/port_table.cpp",
                   "void read(TableReader& in) {\n"
                   "  if (auto v = in.integer<uint16_t>(\"rx_queues\", 0)) {}\n"
                   "  if (auto v = in.boolean(\"colour\")) in.fail(nullptr, \"not_a_key\", \"why\");\n"
                   "  // in.boolean(\"commented_out\")\n"
                   "  for (const char* key : {\"rx_lcores\", \"tx_lcores\"}) in.find(key);\n"
                   "  for (const char* c : {\"incast\"}) if (cfg.runs(c)) in.fail(in.find(\"rate\"), c, \"why\");\n}\n")
        self.write("control/suites/x/section.cpp",
                   "double read_percent(TableReader& in, const char* key, double fallback) { return 0; }\n"
                   "void f(TableReader& r) {\n  const auto seconds = [&](const char* key, double d) { return 1; };\n"
                   "  read_percent(r, \"rate\", 1.0);\n  seconds(\"warm_up\", 2.0);\n}\n")
        self.write("control/cli/no_reader.cpp", "void g() { boolean(\"not_read_by_a_reader\"); }\n")
        keys = profile_keys(self.root)
        self.assertEqual(sorted(keys), ["colour", "rate", "rx_lcores", "rx_queues", "tx_lcores", "warm_up"])
        reference = "| `rx_queues` | |\n| `rx_lcores`, `tx_lcores` | |\n`rate` and `warm_up`\ncolour, in prose only\n"
        self.assertEqual(undocumented(keys, reference), ["colour"])

    def test_a_method_missing_from_the_reference(self):
        self.write("dataplane/mgmt/port_methods.cpp",
                   "void add(Dispatcher& d) {\n  d.add(\"port.list\", \"help\", false, f);\n"
                   "  d.add_async(\n      \"port.config.set\", \"help\", true, g);\n"
                   "  d.alias(\"port.link_set\", \"port.link.set\");\n  // d.add(\"port.gone\", ...)\n}\n")
        methods = rpc_methods(self.root)
        self.assertEqual(sorted(methods), ["port.config.set", "port.link_set", "port.list"])
        self.assertEqual(undocumented(methods, "| `port.list`, `port.link_set` | ... |\nport.config.set\n"),
                         ["port.config.set"])

    def test_an_exit_code_missing_from_the_reference(self):
        self.write(EXIT_CODES, "constexpr int kExitRefused = 1;  ///< refused\n"
                               "constexpr int kExitUsage = 2;\n// constexpr int kExitOld = 9;\n"
                               "constexpr int kExitIncomplete = 6;\n")
        codes = exit_codes(self.root)
        self.assertEqual(codes, [("kExitRefused", 1), ("kExitUsage", 2), ("kExitIncomplete", 6)])
        reference = ("| code | constant | meaning |\n|---|---|---|\n| 1 | `kExitRefused` | refused |\n"
                     "| 3 | `kExitUsage` | the wrong value |\nkExitIncomplete is 6, outside the table\n")
        self.assertEqual(missing_exit_codes(codes, reference), [("kExitUsage", 2), ("kExitIncomplete", 6)])

    def test_a_broken_link(self):
        self.write("README.md", "# linerate\n[guide](docs/guide/run.md#the-data-plane-as-a-service)\n"
                                "[gone](docs/guide/gone.md) ![chart](docs/guide/img/ndr.png)\n"
                                "[bad anchor](docs/guide/run.md#no-such-part) [site](https://example.org/x)\n"
                                "`[in code](docs/nowhere.md)`\n```\n[in a block](docs/nowhere.md)\n```\n")
        self.write("docs/guide/run.md", "# Run\n## The data plane as a service\n## `[[switch]]`: the switch — 2×\n"
                                        "## Again\n## Again\n[up](../../README.md) [self](#again-1) "
                                        "[switch](#switch-the-switch--2) [missing](#again-2)\n")
        self.write("docs/guide/img/ndr.png", "")
        self.assertEqual(broken_links(self.root, markdown_files(self.root)), [
            "README.md: docs/guide/gone.md (no such file)",
            "README.md: docs/guide/run.md#no-such-part (no such heading)",
            "docs/guide/run.md: #again-2 (no such heading)",
        ])

    def test_a_path_that_moved(self):
        self.write("README.md", "Views in `control/views/` and `lib/views/`; run `scripts/bench.sh 5 5`, then\n"
                                "`scripts/gone.sh`. Not paths: `build/control/linerate`, `docs/guide/*.md`,\n"
                                "`lib/NAME/`, `tests/.../x`, `rate = \"max\"`, `/run/linerate/dataplane.sock`.\n"
                                "```\n`config/in_a_block.toml`\n```\n")
        self.write("lib/views/run_views.hpp", "")
        self.write("scripts/bench.sh", "")
        self.assertEqual(missing_paths(self.root, markdown_files(self.root)),
                         ["README.md: control/views/", "README.md: scripts/gone.sh"])

    def test_github_slugs(self):
        self.assertEqual(slug("The report (`--report FILE`, schema `linerate.run_report/1`)"),
                         "the-report---report-file-schema-lineraterun_report1")
        self.assertEqual(slug("`[[switch]]`: the software lossless switch"), "switch-the-software-lossless-switch")
        self.assertEqual(slug("RFC 2544, NDR / PDR and MLRsearch"), "rfc-2544-ndr--pdr-and-mlrsearch")


if __name__ == "__main__":
    unittest.main(verbosity=2)
