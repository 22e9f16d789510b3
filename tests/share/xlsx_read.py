#!/usr/bin/env python3
"""--format xlsx read back without libxlsxwriter: Python's zipfile and an XML parser check
every cell of the Tasks sheet against `--format json` (types and values: dates as dates,
durations as numbers, text as text), the frozen header, the autofilter, the column widths,
the Summary sheet, the stacked bar chart (per task, and per group for a large set), stdout
(a file or a pipe; never a terminal) and the atomic -o. TAP output."""
import datetime
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bigset  # noqa: E402
import hostile_text  # noqa: E402

ECSPROF = os.environ["ECSPROF"]
SRCDIR = os.environ["SRCDIR"]
EXAMPLE = os.path.join(SRCDIR, "examples", "scaleout.json")
GROUPING = ["--group-by", "soci", "--soci-if", "taskdef=checkout-api:8"]
NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
      "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
      "pr": "http://schemas.openxmlformats.org/package/2006/relationships"}
NUMBER_COLS = {"cpu", "memory"}

n = 0
failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    if cond:
        print("ok %d - %s" % (n, what))
    else:
        failed += 1
        print("not ok %d - %s" % (n, what))
        for line in str(detail).splitlines()[:20]:
            print("# " + line)
    sys.stdout.flush()


def ecsprof(*args, env=None, **kw):
    return subprocess.run([ECSPROF] + list(args), capture_output=True, timeout=300,
                          env=dict(os.environ, **(env or {})), **kw)


def col_letters(i):
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def col_index(ref):
    letters = re.match(r"[A-Z]+", ref).group(0)
    v = 0
    for ch in letters:
        v = v * 26 + ord(ch) - 64
    return v - 1


class Workbook:
    """just enough of SpreadsheetML to read cells, styles, panes, filters and charts"""

    def __init__(self, path):
        self.z = zipfile.ZipFile(path)
        wb = self.xml("xl/workbook.xml")
        rels = self.rels("xl/_rels/workbook.xml.rels")
        self.sheets = {}
        for s in wb.find("m:sheets", NS):
            rid = s.get("{%s}id" % NS["r"])
            self.sheets[s.get("name")] = "xl/" + rels[rid]
        self.strings = []
        if "xl/sharedStrings.xml" in self.z.namelist():
            for si in self.xml("xl/sharedStrings.xml").findall("m:si", NS):
                self.strings.append("".join(t.text or "" for t in si.iter("{%s}t" % NS["m"])))
        st = self.xml("xl/styles.xml")
        fmts = {int(f.get("numFmtId")): f.get("formatCode")
                for f in st.find("m:numFmts", NS) or []}
        self.xf_format = [fmts.get(int(x.get("numFmtId")), "builtin %s" % x.get("numFmtId"))
                          for x in st.find("m:cellXfs", NS)]

    def xml(self, name):
        return ET.fromstring(self.z.read(name))

    def rels(self, name):
        return {r.get("Id"): r.get("Target") for r in self.xml(name)}

    def sheet(self, name):
        return self.xml(self.sheets[name])

    def cells(self, sheet_xml):
        """{(row, col): (type, value, number format)} with row and col from 0"""
        out = {}
        for c in sheet_xml.iter("{%s}c" % NS["m"]):
            ref = c.get("r")
            row = int(re.search(r"\d+", ref).group(0)) - 1
            t = c.get("t", "n")
            fmt = self.xf_format[int(c.get("s", "0"))]
            v = c.find("m:v", NS)
            if t == "s":
                val = self.strings[int(v.text)]
            elif t == "inlineStr":
                val = "".join(x.text or "" for x in c.iter("{%s}t" % NS["m"]))
            elif v is not None:
                val = float(v.text)
            else:
                continue
            out[(row, col_index(ref))] = ("s" if t in ("s", "inlineStr", "str") else t, val, fmt)
        return out

    def chart_of(self, sheet_name):
        path = self.sheets[sheet_name]
        base = os.path.dirname(path)
        rels = self.rels(base + "/_rels/" + os.path.basename(path) + ".rels")
        drawing = os.path.normpath(os.path.join(base, list(rels.values())[0]))
        drels = self.rels(os.path.dirname(drawing) + "/_rels/" + os.path.basename(drawing) + ".rels")
        chart = os.path.normpath(os.path.join(os.path.dirname(drawing), list(drels.values())[0]))
        return self.xml(chart)


def iso_ms(s):
    d = datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return round(d.timestamp() * 1000)


def excel_ms(serial):
    return round((serial - 25569.0) * 86400000.0)


def check_tasks(wb, tasks, header):
    ws = wb.sheet("Tasks")
    cells = wb.cells(ws)
    ok([cells.get((0, i), (None, None))[1] for i in range(len(header))] == header,
       "Tasks: the header row is the CSV header")
    bad = []
    for r, t in enumerate(tasks, start=1):
        for ci, name in enumerate(header):
            want = t.get(name)
            got = cells.get((r, ci))
            if want is None or want == "":
                if got is not None:
                    bad.append("%s row %d: want empty, got %r" % (name, r, got))
                continue
            if got is None:
                bad.append("%s row %d: missing (want %r)" % (name, r, want))
            elif name.endswith("_at"):
                if got[0] != "n" or "yyyy" not in got[2] or excel_ms(got[1]) != iso_ms(want):
                    bad.append("%s row %d: %r is not the date %s" % (name, r, got, want))
            elif isinstance(want, (int, float)):
                # seconds show as 0.000; any other number (a cost) keeps its digits
                fmt_ok = got[2] == "0.000" if name.endswith("_s") else got[2] not in ("0", "General")
                if got[0] != "n" or abs(got[1] - want) > 1e-9 or not fmt_ok:
                    bad.append("%s row %d: %r is not the number %r" % (name, r, got, want))
            elif name in NUMBER_COLS:
                if got[0] != "n" or got[1] != float(want):
                    bad.append("%s row %d: %r is not the number %r" % (name, r, got, want))
            elif got[0] != "s" or got[1] != want:
                bad.append("%s row %d: %r is not the text %r" % (name, r, got, want))
    ok(not bad, "Tasks: every cell of %d tasks has the type and value of the JSON output"
       % len(tasks), "\n".join(bad[:15]))
    pane = ws.find(".//m:pane", NS)
    ok(pane is not None and pane.get("state") == "frozen" and pane.get("ySplit") == "1",
       "Tasks: the header row is frozen",
       None if pane is None else pane.attrib)
    af = ws.find("m:autoFilter", NS)
    want = "A1:%s%d" % (col_letters(len(header) - 1), len(tasks) + 1)
    ok(af is not None and af.get("ref") == want, "Tasks: an autofilter over %s" % want,
       None if af is None else af.attrib)
    widths = {int(c.get("min")) - 1: float(c.get("width")) for c in ws.find("m:cols", NS)}
    ok(len(widths) == len(header) and widths[header.index("task_id")] >= 34 and
       widths[header.index("created_at")] >= 23, "Tasks: every column has a fitted width",
       widths)
    return cells


def check_summary(wb, summary):
    cells = wb.cells(wb.sheet("Summary"))
    head = [cells.get((0, i), (None, None))[1] for i in range(22)]
    ok(head[:3] == ["group", "phase", "n"] and head[-1] == "verdict" and
       head[16:21] == ["startup_cost_per_1000_usd", "baseline_startup_cost_per_1000_usd",
                       "startup_cost_unpriced_n", "startup_cost_unpriced",
                       "diagnosis_counts"],
       "Summary: the header row", head)
    bad, row = [], 1
    for g in summary["groups"]:
        for phase, st in g["phases"].items():
            if cells.get((row, 0), (0, 0))[1] != g["name"] or cells.get((row, 1), (0, 0))[1] != phase:
                bad.append("row %d is not %s/%s" % (row, g["name"], phase))
            if cells.get((row, 2), ("", -1))[:2] != ("n", float(st["n"])):
                bad.append("row %d n" % row)
            # the group's startup cost per 1,000 starts and its unpriced starts
            cost = cells.get((row, 16))
            if g["startup_cost_mean_usd"] is not None and (
                    cost is None or cost[0] != "n" or
                    abs(cost[1] - g["startup_cost_mean_usd"] * 1000) > 1e-9):
                bad.append("row %d startup cost %r != %r" % (row, cost, g["startup_cost_mean_usd"]))
            if cells.get((row, 18), ("", -1))[:2] != ("n", float(g["startup_cost_unpriced_n"])):
                bad.append("row %d startup_cost_unpriced_n" % row)
            diag = "; ".join("%s (%d)" % (d["diagnosis"], d["n"]) for d in g["diagnosis_counts"])
            if cells.get((row, 20), ("s", ""))[1] != diag:
                bad.append("row %d diagnosis_counts %r != %r" % (row, cells.get((row, 20)), diag))
            # the JSON rounds to ms; the sheet keeps the full value
            p50 = cells.get((row, 4))
            if st["n"] and (p50 is None or p50[0] != "n" or abs(p50[1] - st["p50"]) > 0.0005 + 1e-9):
                bad.append("row %d p50 %r != %r" % (row, p50, st["p50"]))
            cmp = (g.get("compare") or {}).get(phase)
            if cmp:
                pv = cells.get((row, 14))
                if pv is None or pv[0] != "n" or abs(pv[1] - cmp["p_value"]) > 1e-12:
                    bad.append("row %d p_value %r != %r" % (row, pv, cmp["p_value"]))
                # a tiny p shows its magnitude (scientific below 0.001), not 0.0000
                elif "[<0.001]0.00E+00" not in str(pv[2]):
                    bad.append("row %d p_value format %r hides a tiny p" % (row, pv[2]))
                if cells.get((row, 21), (0, 0))[1] != cmp["verdict"]:
                    bad.append("row %d verdict" % row)
            row += 1
    ok(not bad and row > 1, "Summary: %d rows match the JSON summary (numbers as numbers)"
       % (row - 1), "\n".join(bad[:10]))


A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"


def check_chart(wb, cat_ref, val_sheet, what):
    ch = wb.chart_of("Chart")
    bar = ch.find(".//c:barChart", NS)
    ok(bar is not None and bar.find("c:barDir", NS).get("val") == "bar" and
       bar.find("c:grouping", NS).get("val") == "stacked", "%s: a stacked bar chart" % what)
    if bar is None:
        return
    sers = bar.findall("c:ser", NS)
    names = ["".join(s.find("c:tx", NS).itertext()) for s in sers]
    cats = [s.find("c:cat//c:f", NS).text for s in sers]
    vals = [s.find("c:val//c:f", NS).text for s in sers]
    ok(names == ["provision", "pull", "start"] and all(c == cat_ref for c in cats) and
       all(v.startswith(val_sheet + "!") for v in vals),
       "%s: three series, provision, pull and start, over %s" % (what, cat_ref),
       "%r %r %r" % (names, cats, vals))
    # one colour per phase: the page's and the TUI's (src/model/phase.c phase_colours)
    fills = [(s.find(".//a:srgbClr", dict(NS, a=A_NS)).get("val") or "").upper() for s in sers]
    ok(fills == ["3D7CC9", "D78700", "3F9E5A"],
       "%s: each phase in its one colour (blue, orange, green)" % what, fills)


def check_hostile(top):
    """issue 31 items 2-5: every part well-formed XML, no unsafe code point in any, the
    texts as typed (Excel's reading of _xHHHH_ undone) with each unsafe one a '?'; the CSV
    of the same file replaces them too"""
    work = os.path.join(top, "hostile")
    os.mkdir(work)
    src = os.path.join(work, "hostile.json")
    hostile_text.write(src)
    book = os.path.join(work, "hostile.xlsx")
    r = ecsprof("report", "--format", "xlsx", "--group-by", "tag:team", "-o", book, src)
    ok(r.returncode == 0 and zipfile.is_zipfile(book), "hostile text: the workbook is written",
       r.stderr.decode())
    if r.returncode != 0:
        return
    z = zipfile.ZipFile(book)
    bad, unsafe = [], []
    for name in z.namelist():
        if not name.endswith((".xml", ".rels")):
            continue
        data = z.read(name)
        try:
            ET.fromstring(data)
        except ET.ParseError as e:
            bad.append("%s: %s" % (name, e))
        found = hostile_text.any_unsafe(data.decode("utf-8", "replace"))
        if found:
            unsafe.append("%s: %s" % (name, found))
    ok(not bad, "hostile text: every XML part of the workbook is well-formed", bad)
    ok(not unsafe, "hostile text: no part holds a control, bidi control or noncharacter", unsafe)
    if bad:
        return
    wb = Workbook(book)
    texts = {hostile_text.excel_text(v) for (_, v, _) in wb.cells(wb.sheet("Tasks")).values()
             if isinstance(v, str)}
    texts |= {hostile_text.excel_text(v) for (_, v, _) in wb.cells(wb.sheet("Summary")).values()
              if isinstance(v, str)}
    want = {hostile_text.shown(s) for s in hostile_text.STRINGS}
    ok(want <= texts, "hostile text: Excel shows each string as typed, each unsafe code "
       "point a '?' (_x0041_ stays _x0041_)", sorted(want - texts))
    out = ecsprof("report", "--format", "csv", src).stdout.decode("utf-8")
    ok(not hostile_text.any_unsafe(out) and hostile_text.shown(hostile_text.VTFF) in out,
       "hostile text: the CSV replaces VT, FF, bidi controls and noncharacters by '?'",
       hostile_text.any_unsafe(out))


def main():
    work = tempfile.mkdtemp(prefix="ecsprof-xlsx-")
    try:
        run_all(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("1..%d" % n)
    return 1 if failed else 0


def run_all(work):
    tmpdir = os.path.join(work, "tmp")
    os.mkdir(tmpdir)
    env = {"TMPDIR": tmpdir}
    book = os.path.join(work, "scaleout.xlsx")
    r = ecsprof("report", "--format", "xlsx", "-o", book, *GROUPING, EXAMPLE, env=env)
    ok(r.returncode == 0 and zipfile.is_zipfile(book), "ecsprof writes a zip workbook",
       r.stderr.decode())
    ok(not os.listdir(tmpdir), "its temporary file is gone", os.listdir(tmpdir))
    wb = Workbook(book)
    ok(list(wb.sheets) == ["Tasks", "Summary", "Chart"], "sheets Tasks, Summary and Chart",
       list(wb.sheets))
    header = ecsprof("report", "--format", "csv", EXAMPLE).stdout.decode().splitlines()[0].split(",")
    tasks = json.loads(ecsprof("report", "--format", "json", *GROUPING, EXAMPLE).stdout)["tasks"]
    check_tasks(wb, tasks, header)
    summary = json.loads(ecsprof("report", "--format", "json", "--summary", *GROUPING, EXAMPLE).stdout)
    check_summary(wb, summary)
    check_chart(wb, "Chart!$A$2:$A$%d" % (len(tasks) + 1), "Tasks", "30 tasks")
    # the bars are labelled with ids cut as the table cuts them, not 32 characters each
    labels = [v for (row, col), (t, v, f) in sorted(wb.cells(wb.sheet("Chart")).items())
              if col == 0 and row > 0]
    ok(len(labels) == len(tasks) and
       all(len(l) == 8 and t["task_id"].startswith(l) for l, t in zip(labels, tasks)),
       "Chart: each bar labelled with its task id's first 8 characters", labels[:3])
    # a share is a percent (72.4%), not 0.724
    head = wb.cells(wb.sheet("Summary"))
    share = [c for (row, col), c in head.items()
             if row > 0 and head.get((0, col), ("", ""))[1] == "pull_share" and c[0] == "n"]
    ok(share and all("%" in f for (t, v, f) in share),
       "Summary: pull_share is shown as a percent", share[:3])

    # standard output: a file or a pipe, never a terminal
    redirected = os.path.join(work, "stdout.xlsx")
    with open(redirected, "wb") as f:
        r = subprocess.run([ECSPROF, "report", "--format", "xlsx", EXAMPLE], stdout=f,
                           stderr=subprocess.PIPE, timeout=60)
    ok(r.returncode == 0 and Workbook(redirected).sheets.keys() == wb.sheets.keys(),
       "stdout redirected to a file gets the workbook", r.stderr.decode())
    p = subprocess.run("%s report --format xlsx %s | cat > %s" % (ECSPROF, EXAMPLE, redirected + "2"),
                       shell=True, capture_output=True, timeout=60)
    ok(p.returncode == 0 and zipfile.is_zipfile(redirected + "2"), "and so does a pipe",
       p.stderr.decode())
    master, slave = pty.openpty()
    r = subprocess.run([ECSPROF, "report", "--format", "xlsx", EXAMPLE], stdout=slave,
                       stderr=subprocess.PIPE, timeout=60)
    os.close(slave)
    os.close(master)
    ok(r.returncode == 2 and b"-o FILE.xlsx" in r.stderr,
       "a terminal gets a usage error, not binary", r.stderr.decode())

    # -o stays atomic: a failed run keeps the previous workbook, leaves no temporary
    before = open(book, "rb").read()
    bad = os.path.join(SRCDIR, "tests", "fixtures", "input", "bad_json.json")
    r = ecsprof("report", "--format", "xlsx", "-o", book, bad, env=env)
    ok(r.returncode == 1 and open(book, "rb").read() == before,
       "a failed run keeps the previous workbook", r.stderr.decode())
    ok(sorted(os.listdir(work)) == ["scaleout.xlsx", "stdout.xlsx", "stdout.xlsx2", "tmp"]
       and not os.listdir(tmpdir), "and leaves no temporary file", os.listdir(work))

    # a large set: one bar per group
    big = os.path.join(work, "big.json")
    bigset.write(big, 1000)
    bigbook = os.path.join(work, "big.xlsx")
    r = ecsprof("report", "--format", "xlsx", "-o", bigbook, "--group-by", "taskdef", big)
    ok(r.returncode == 0, "1,000 tasks: written", r.stderr.decode())
    check_chart(Workbook(bigbook), "Chart!$A$2:$A$3", "Chart", "1,000 tasks")

    # 50,000 tasks: rows streamed to disk, every row there
    bigset.write(big, 50000)
    t0 = time.monotonic()
    r = ecsprof("report", "--format", "xlsx", "-o", bigbook, "--group-by", "taskdef", big)
    secs = time.monotonic() - t0
    size = os.path.getsize(bigbook) if r.returncode == 0 else 0
    ok(r.returncode == 0, "50,000 tasks: written in %.1f s, %.1f MB" % (secs, size / 1048576),
       r.stderr.decode())
    if r.returncode == 0:
        z = Workbook(bigbook)
        rows = sum(1 for _ in re.finditer(rb"<row ", z.z.read(z.sheets["Tasks"])))
        ok(rows == 50001, "50,000 tasks: the Tasks sheet has every row (%d)" % rows)
    check_hostile(work)


if __name__ == "__main__":
    sys.exit(main())
