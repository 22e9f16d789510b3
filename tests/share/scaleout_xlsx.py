#!/usr/bin/env python3
"""`report --scaleout ... --format xlsx` read back without libxlsxwriter (zipfile and an XML
parser, xlsx_read.py's reader): the "Scale-outs" sheet has the CSV's header and, cell by
cell, its values typed (instants as dates, seconds and counts as numbers, flags as
booleans, estimated seconds in italics), the notes under the rows; the "Stages" sheet's
stacked bar chart has one bar per scale-out, a visible series per drawn stage in its
colour and invisible gaps, and each bar's stack is as long as the bar (the total less what
follows the last stage); -o F.xlsx infers the format, a terminal is refused. TAP."""
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xlsx_read import NS, Workbook, ecsprof, excel_ms, iso_ms, ok  # noqa: E402
import xlsx_read  # noqa: E402

SRCDIR = os.environ["SRCDIR"]
EX = [os.path.join(SRCDIR, "examples", "scaleout.json"),
      os.path.join(SRCDIR, "examples", "scaleout-sources.jsonl")]
COLOURS = {"detect": "9E9E9E", "react": "757575", "schedule": "BDBDBD", "provision": "3D7CC9",
           "pull": "D78700", "start": "3F9E5A", "health": "1FA2B5", "register": "B07AA1"}


def check_rows(wb, rows, header):
    cells = wb.cells(wb.sheet("Scale-outs"))
    got_head = [cells.get((0, i), (None, None))[1] for i in range(len(header))]
    ok(got_head == header, "Scale-outs: the header row is the CSV header", got_head)
    bad = []
    for r, row in enumerate(rows, start=1):
        for ci, name in enumerate(header):
            want, got = row[name], cells.get((r, ci))
            if want == "":
                if got is not None:
                    bad.append("%s row %d: want empty, got %r" % (name, r, got))
            elif got is None:
                bad.append("%s row %d: missing (want %r)" % (name, r, want))
            elif want in ("true", "false"):
                if got[0] != "b" or got[1] != (1.0 if want == "true" else 0.0):
                    bad.append("%s row %d: %r is not the boolean %s" % (name, r, got, want))
            elif want.endswith("Z") and want[4:5] == "-":
                if got[0] != "n" or "yyyy" not in got[2] or excel_ms(got[1]) != iso_ms(want):
                    bad.append("%s row %d: %r is not the date %s" % (name, r, got, want))
            elif name in ("cluster", "service", "trigger", "largest_stage", "advice"):
                if got[0] != "s" or got[1] != want:
                    bad.append("%s row %d: %r is not the text %r" % (name, r, got, want))
            else:
                # the CSV rounds: seconds to 3 decimals, the launch rate to 2
                tol = 0.005 if name == "launch_rate" else 0.0005
                if got[0] != "n" or abs(got[1] - float(want)) > tol + 1e-9:
                    bad.append("%s row %d: %r is not the number %s" % (name, r, got, want))
    ok(not bad, "Scale-outs: every cell of %d rows has the CSV's value, typed" % len(rows),
       "\n".join(bad[:15]))
    return cells


def main():
    work = tempfile.mkdtemp(prefix="ecsprof-soxlsx-")
    r = ecsprof("report", "--scaleout", *EX, "--format", "csv")
    ok(r.returncode == 0, "the CSV", r.stderr.decode())
    rd = csv.DictReader(io.StringIO(r.stdout.decode()))
    rows, header = list(rd), rd.fieldnames
    ok(len(rows) == 3, "the example has 3 scale-outs (%d)" % len(rows))
    book = os.path.join(work, "so.xlsx")
    r = ecsprof("report", "--scaleout", *EX, "-o", book)
    ok(r.returncode == 0 and open(book, "rb").read(2) == b"PK",
       "-o so.xlsx writes a workbook", r.stderr.decode())
    wb = Workbook(book)
    ok(list(wb.sheets) == ["Scale-outs", "Stages"], "the sheets: Scale-outs, Stages",
       list(wb.sheets))
    cells = check_rows(wb, rows, header)
    # estimated seconds are italic: the register of the alarm-less example rows
    styles = wb.xml("xl/styles.xml")
    xfs = list(styles.find("m:cellXfs", NS))
    fonts = list(styles.find("m:fonts", NS))
    col = header.index("register_s")
    italic = []
    for ri, row in enumerate(rows, start=1):
        c = next(c for c in wb.sheet("Scale-outs").iter("{%s}c" % NS["m"])
                 if c.get("r") == "%s%d" % (xlsx_read.col_letters(col), ri + 1)) \
            if row["register_s"] else None
        if c is not None:
            font = fonts[int(xfs[int(c.get("s", "0"))].get("fontId", "0"))]
            italic.append((row["register_estimated"], font.find("m:i", NS) is not None))
    ok(italic and all(est == ("true" if it else "false") for est, it in italic),
       "Scale-outs: estimated seconds in italics, observed ones not", italic)
    nb = os.path.join(work, "notes.xlsx")
    r3 = ecsprof("report", "--scaleout", EX[0], "--format", "xlsx", "-o", nb)
    notes = [v[1] for (row, c), v in Workbook(nb).cells(Workbook(nb).sheet("Scale-outs")).items()
             if c == 0 and isinstance(v[1], str) and v[1].startswith("note: ")]
    ok(r3.returncode == 0 and notes and any("not read" in n or "no " in n for n in notes),
       "without the source documents the notes name what was not read (%d notes)" % len(notes),
       r3.stderr.decode() + repr(notes))

    # the Stages sheet: one stacked bar per scale-out, gaps invisible
    chart = wb.chart_of("Stages")
    ok(chart.find(".//c:barChart/c:grouping", NS).get("val") == "stacked",
       "Stages: a stacked bar chart")
    series = chart.findall(".//c:ser", NS)
    ok(len(series) == 16, "Stages: a gap and a stage series per drawn stage (%d)" % len(series))
    visible, hidden, cats_all = {}, 0, set()
    for s in series:
        name = s.find("c:tx//c:f", NS).text
        cats = s.find("c:cat//c:f", NS).text
        if s.find("c:spPr/a:noFill", {**NS, "a": "http://schemas.openxmlformats.org/drawingml/2006/main"}) is not None:
            hidden += 1
        else:
            rgb = s.find(".//{http://schemas.openxmlformats.org/drawingml/2006/main}srgbClr")
            visible[name] = rgb.get("val") if rgb is not None else None
        cats_all.add(cats)
    ok(cats_all == {"Stages!$A$2:$A$4"}, "Stages: every series over the 3 scale-outs", cats_all)
    sc = wb.cells(wb.sheet("Stages"))
    heads = [sc.get((0, i), (0, ""))[1] for i in range(17)]
    names = {}
    for ref, rgb in visible.items():
        ci = xlsx_read.col_index(ref.split("!")[1].replace("$", ""))
        names[heads[ci].replace(" (s)", "")] = rgb
    ok(hidden == 8 and names == COLOURS, "Stages: each stage in its colour, the gaps unfilled",
       (hidden, names))
    bad = []
    for i, row in enumerate(rows, start=1):
        stack = sum(sc.get((i, c), (0, 0.0))[1] for c in range(1, 17))
        start = min([iso_ms(row[k]) for k in ("detect_from", "react_from", "schedule_from")
                     if row[k]] + [iso_ms(row["trigger_at"])])
        end = max([iso_ms(row[k]) for k in ("register_to",) if row[k]] + [0])
        if row["register_to"] and abs(stack - (end - start) / 1000.0) > 0.01:
            bad.append("row %d: stack %.3f s, bar %.3f s" % (i, stack, (end - start) / 1000.0))
    ok(not bad, "Stages: each stack ends where the bar's register ends", "\n".join(bad))

    # the live command's writer is the same; a terminal is refused
    import pty
    mfd, sfd = pty.openpty()
    p = subprocess.run([xlsx_read.ECSPROF, "report", "--scaleout", *EX, "--format", "xlsx"],
                       stdout=sfd, stderr=subprocess.PIPE, timeout=60)
    os.close(sfd)
    os.close(mfd)
    ok(p.returncode == 2 and b"binary workbook" in p.stderr,
       "--format xlsx to a terminal is refused (exit 2)", (p.returncode, p.stderr))
    shutil.rmtree(work, ignore_errors=True)
    print("1..%d" % xlsx_read.n)
    return 1 if xlsx_read.failed else 0


if __name__ == "__main__":
    sys.exit(main())
