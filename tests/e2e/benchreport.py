"""Checks of a benchmark's report directory shared by the bench tests: the files are
there, results.csv and report.html are the views `linerate report` rebuilds from
report.json alone, and the page loads in a real browser (Debian's chromium, headless)
with every chart drawn by gnuplot (its SVG holds plotted paths)."""
import csv
import html
import os
import re
import shutil
import subprocess
import sys


def check_report_dir(test, out_dir, csv_name="results.csv"):
    """`csv_name`: the CSV view of this kind of report (qualification: summary.csv)."""
    for name in ("report.json", csv_name, "report.html"):
        test.assertTrue(os.path.exists(os.path.join(out_dir, name)), name)
    linerate = sys.modules["__main__"].LINERATE
    rebuilt_html = os.path.join(out_dir, "rebuilt.html")
    rebuilt_csv = os.path.join(out_dir, "rebuilt.csv")
    proc = subprocess.run([linerate, "report", os.path.join(out_dir, "report.json"), "--html", rebuilt_html,
                           "--csv", rebuilt_csv], capture_output=True, text=True)
    test.assertEqual(proc.returncode, 0, proc.stderr)
    with open(os.path.join(out_dir, "report.html")) as a, open(rebuilt_html) as b:
        test.assertEqual(a.read(), b.read(), "report.html is a view of report.json")
    with open(os.path.join(out_dir, csv_name)) as a, open(rebuilt_csv) as b:
        test.assertEqual(a.read(), b.read(), csv_name + " is a view of report.json")
    with open(os.path.join(out_dir, csv_name)) as f:
        return list(csv.DictReader(f))


def check_page_in_browser(test, html_path, expected_charts):
    """Loads the page in headless chromium; returns the DOM it built. Every chart in
    `expected_charts` (figure ids) is there with gnuplot's plotted paths."""
    browser = shutil.which("chromium")
    if browser is None:
        test.skipTest("chromium is not installed (scripts/setup.sh installs it)")
    proc = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                           "--dump-dom", "file://" + os.path.abspath(html_path)],
                          capture_output=True, text=True, timeout=120)
    test.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
    dom = proc.stdout
    test.assertNotIn("CONSOLE", proc.stderr, "the page logged to the console")
    test.assertNotIn("chart not drawn", dom)
    for chart in expected_charts:
        figure = re.search(r'<figure class="chart" id="%s">(.*?)</figure>' % re.escape(chart), dom, re.S)
        test.assertIsNotNone(figure, "no figure %s" % chart)
        body = figure.group(1)
        test.assertIn("<svg", body)
        # Each plot's group runs to the next one; it starts with the legend's sample (a
        # line's move-to, or a point mark), so a plot that drew data has more of them
        # (gnuplot may draw the sample and the line in one path: count the moves).
        groups = re.split(r'<g id="gnuplot_plot_\d+[a-z]?"', body)[1:]
        test.assertTrue(groups, "chart %s has no plot" % chart)
        def marks(group):
            moves = sum(len(re.findall(r"M\s*[\d.]", d)) for d in re.findall(r"<path[^>]* d=['\"]([^'\"]*)", group))
            return max(moves, len(re.findall(r"<use ", group)))
        drawn = [g for g in groups if marks(g) >= 2]
        test.assertTrue(drawn, "chart %s has no plotted path" % chart)
    return dom


def check_summary(test, dom, dut, port_speeds):
    """The page's first screen (section#summary) names the device under test, linerate's
    version and host, and each port with its driver and the speed its rates refer to
    (`port_speeds`: port name -> "100 Mbit/s")."""
    found = re.search(r'<section id="summary">(.*?)</section>', dom, re.S)
    test.assertIsNotNone(found, "the page has no summary")
    text = html.unescape(re.sub(r"<[^>]+>", " ", found.group(1)))
    text = re.sub(r"\s+", " ", text)
    linerate = sys.modules["__main__"].LINERATE
    version = subprocess.run([linerate, "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]
    test.assertIn("device under test " + dut, text)
    test.assertIn("tester linerate %s on %s" % (version, os.uname().nodename), text)
    for port, speed in port_speeds.items():
        test.assertRegex(text, r"%s : \S+ \(.*?\), rates refer to %s" % (re.escape(port), re.escape(speed)))
    test.assertRegex(text, r"when \d{4}-\d\d-\d\d \d\d:\d\d:\d\d to ")
    return text
