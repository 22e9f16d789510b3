#!/usr/bin/env python3
"""--format html in a real browser: headless Chromium with the network off renders the page
at desktop and phone width (the screenshots must not be blank), prints it, dumps the DOM
(every task id and every verdict sentence must be in it) and logs its network activity
(the page must request nothing; a control page with one image and one style sheet from
the network proves that the log would show it). Then the size and shape for 50,000 tasks.
TAP output. Needs chromium (scripts/deps) and either root or user namespaces for
`unshare -n`."""
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bigset  # noqa: E402
import hostile_text  # noqa: E402

ECSPROF = os.environ["ECSPROF"]
SRCDIR = os.environ["SRCDIR"]
EXAMPLE = os.path.join(SRCDIR, "examples", "scaleout.json")
GROUPING = ["--group-by", "soci", "--soci-if", "taskdef=checkout-api:8"]

n = 0
failed = 0
# phase colours (src/model/phase.c phase_colours): the page, the workbook and the TUI's
# xterm 172 (#d78700) share them
PROVISION_RGB = (0x3d, 0x7c, 0xc9)
PULL_RGB = (0xd7, 0x87, 0x00)
# measures the page as laid out: the document's width against the window, what sticks out
# of it, and the tasks table against its scroll box; written into the DOM for --dump-dom
MEASURE = """<script>
addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('main > *, section, .scroll').forEach(function (e) {
    var b = e.getBoundingClientRect();
    if (b.right > innerWidth + 0.5) out.push(e.tagName + '#' + e.id + ':' + Math.round(b.right));
  });
  var box = document.querySelector('#tasks .scroll'), id = document.querySelector('#tasks td.id');
  document.body.setAttribute('data-measure', JSON.stringify({
    doc: document.documentElement.scrollWidth, win: innerWidth, out: out,
    table: box.scrollWidth, box: box.clientWidth, id: id.textContent, title: id.title}));
});
</script>"""


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


def ecsprof(*args, env=None):
    e = dict(os.environ, SOURCE_DATE_EPOCH="1796047331")
    if env:
        e.update(env)
    return subprocess.run([ECSPROF] + list(args), capture_output=True, env=e, timeout=120)


def chromium_bin():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def netns_prefix():
    """unshare -n as root; an unprivileged user gets a user namespace too (-r)."""
    for pre in (["unshare", "-n"], ["unshare", "-rn"]):
        try:
            if subprocess.run(pre + ["true"], capture_output=True, timeout=10).returncode == 0:
                return pre
        except (OSError, subprocess.TimeoutExpired):
            pass
    return None


class Browser:
    def __init__(self, work, prefix, binary):
        self.work, self.prefix, self.binary, self.runs = work, prefix, binary, 0

    def run(self, url, *extra, netlog=None):
        """one fresh profile per run, so that nothing is cached between pages"""
        self.runs += 1
        prof = os.path.join(self.work, "profile%d" % self.runs)
        args = self.prefix + [self.binary, "--headless", "--no-sandbox", "--disable-gpu",
                              "--no-first-run", "--disable-background-networking",
                              "--disable-component-update", "--disable-sync",
                              "--disable-extensions", "--disable-default-apps",
                              "--hide-scrollbars", "--user-data-dir=" + prof]
        if netlog:
            args.append("--log-net-log=" + netlog)
        args += list(extra) + [url]
        return subprocess.run(args, capture_output=True, timeout=120)


def png_pixels(path):
    """(width, height, rows of RGB tuples) from an 8-bit RGB or RGBA PNG, no PIL"""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "PNG type %d/%d" % (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        pos += 12 + ln
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def near(px, rgb, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(px, rgb))


def screenshot_checks(path, width, label):
    w, h, rows = png_pixels(path)
    ok(w == width, "%s: the screenshot is %d px wide" % (label, width), "got %d" % w)
    sample = [px for row in rows[::4] for px in row[::4]]
    ink = sum(1 for px in sample if min(px) < 200)
    colours = len(set(sample))
    ok(ink > len(sample) * 0.03 and colours > 50,
       "%s: the page is not blank (%.1f%% ink, %d colours)" % (label, 100.0 * ink / len(sample), colours))
    # the waterfall's bars: the pull orange and the provision blue are on screen
    orange = sum(1 for px in sample if near(px, PULL_RGB))
    slate = sum(1 for px in sample if near(px, PROVISION_RGB, 12))
    ok(orange > 100 and slate > 100,
       "%s: the waterfall's bars are drawn (%d pull pixels, %d provision pixels sampled)"
       % (label, orange, slate))
    # nothing is cut at the right edge: the last columns are background (the page fits)
    edge = [row[-3] for row in rows[::2]]
    ok(sum(1 for px in edge if min(px) < 200) < len(edge) * 0.02,
       "%s: nothing runs off the right edge" % label)


def page_requests(netlog):
    """requests the page made: the browser's own (component updater) are 'not an origin'"""
    d = json.load(open(netlog))
    types = {v: k for k, v in d["constants"]["logEventTypes"].items()}
    out = []
    for e in d["events"]:
        p = e.get("params") or {}
        if types.get(e["type"]) == "URL_REQUEST_START_JOB" and "url" in p:
            if p.get("initiator") != "not an origin":
                out.append(p["url"])
    return out


def main():
    work = tempfile.mkdtemp(prefix="ecsprof-html-")
    try:
        run_all(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("1..%d" % n)
    return 1 if failed else 0


def check_hostile_text(work, br):
    """issue 31 item 4: bidi controls, noncharacters, VT and FF in the input reach neither
    the file nor Chromium's DOM; each shows as U+FFFD, the text around it as typed"""
    src = os.path.join(work, "hostile_text.json")
    hostile_text.write(src)
    page = os.path.join(work, "hostile_text.html")
    r = ecsprof("report", "--format", "html", "--group-by", "tag:team", "-o", page, src)
    text = open(page, encoding="utf-8").read() if r.returncode == 0 else ""
    ok(r.returncode == 0 and not hostile_text.any_unsafe(text),
       "hostile text: no control, bidi control or noncharacter in the page",
       r.stderr.decode() + repr(hostile_text.any_unsafe(text)))
    r = br.run("file://" + page, "--dump-dom")
    dom = html.unescape(r.stdout.decode("utf-8", "replace"))
    want = [hostile_text.shown(s, "\ufffd") for s in hostile_text.STRINGS]
    ok(r.returncode == 0 and not hostile_text.any_unsafe(dom) and all(w in dom for w in want),
       "hostile text: Chromium's DOM has each string with U+FFFD for each unsafe code point",
       repr(hostile_text.any_unsafe(dom)) + repr([w for w in want if w not in dom]))


def run_all(work):
    page = os.path.join(work, "scaleout.html")
    r = ecsprof("report", "--format", "html", "-o", page, *GROUPING, EXAMPLE)
    ok(r.returncode == 0 and os.path.getsize(page) > 10000, "ecsprof writes the page",
       r.stderr.decode())
    text = open(page, encoding="utf-8").read()

    # self-contained, by reading the file
    ext = re.findall(r'''(?:src|href|xlink:href)\s*=\s*["']?\s*(?:https?:)?//''', text, re.I)
    ok(not ext, "no src or href in the file points outside it", ext[:5])
    ok(re.search(r"<script|<link|<iframe|<img|@import|url\(", text, re.I) is None,
       "no script, link, iframe, img, @import or url() in the file")
    ok("@media print" in text and "@media (max-width" in text,
       "the style sheet has print and phone-width rules")
    rgb = lambda c: "#%02x%02x%02x" % c  # noqa: E731
    ok(("--p0:%s;--p1:%s" % (rgb(PROVISION_RGB), rgb(PULL_RGB))) in text,
       "provision blue and pull orange, as the TUI and the workbook draw them")
    groups = re.findall(r'<span style="color:(#[0-9a-f]{6})">', text)
    far = lambda g, c: sum(abs(int(g[i:i + 2], 16) - c[(i - 1) // 2]) for i in (1, 3, 5)) > 90  # noqa: E731
    ok(groups and all(far(g, PROVISION_RGB) and far(g, PULL_RGB) and
                      far(g, (0x3f, 0x9e, 0x5a)) for g in groups),
       "group colours are not phase colours", groups)

    csv = ecsprof("report", "--format", "csv", *GROUPING, EXAMPLE).stdout.decode()
    ids = [line.split(",")[1] for line in csv.splitlines()[1:]]
    summary = json.loads(ecsprof("report", "--format", "json", "--summary", *GROUPING,
                                 EXAMPLE).stdout)
    verdicts = [c["verdict"] for g in summary["groups"] if g["compare"]
                for c in g["compare"].values() if c]

    binary, prefix = chromium_bin(), netns_prefix()
    ok(binary is not None, "chromium is installed (scripts/deps)")
    ok(prefix is not None, "unshare -n can take the network away")
    if binary is None or prefix is None:
        return
    br = Browser(work, prefix, binary)
    url = "file://" + page

    netlog = os.path.join(work, "net.json")
    r = br.run(url, "--dump-dom", netlog=netlog)
    dom = html.unescape(r.stdout.decode("utf-8", "replace"))
    ok(r.returncode == 0 and "</html>" in r.stdout.decode(), "chromium renders the page",
       r.stderr.decode()[-2000:])
    missing = [i for i in ids if i not in dom]
    ok(len(ids) == 30 and not missing, "the DOM has every task id (%d)" % len(ids), missing[:5])
    missing = [v for v in verdicts if v not in dom]
    ok(len(verdicts) == 5 and not missing, "the DOM has every verdict line (%d)" % len(verdicts),
       missing)
    ok("313da244" in dom and "failed to start" in dom and "CannotPullContainerError" in dom,
       "the failed start is marked with its reason")
    ok(dom.count("<title>") >= 31, "each waterfall row has a title with its values")
    reqs = page_requests(netlog)
    ok(not reqs, "the page makes no network request", reqs)

    # the control: the same log does show a page's requests
    ctl = os.path.join(work, "control.html")
    with open(ctl, "w", encoding="utf-8") as f:
        f.write(text.replace("<main>", '<main><img src="http://127.0.0.1:9/x.png">'
                             '<link rel="stylesheet" href="https://example.invalid/x.css">', 1))
    br.run("file://" + ctl, "--dump-dom", netlog=netlog)
    reqs = page_requests(netlog)
    ok(len(reqs) == 2, "control: a page that fetches is caught by the same check", reqs)

    for width, height, label in ((1280, 1800, "desktop"), (390, 2400, "phone")):
        shot = os.path.join(work, label + ".png")
        r = br.run(url, "--window-size=%d,%d" % (width, height), "--screenshot=" + shot)
        ok(r.returncode == 0 and os.path.exists(shot), "%s: screenshot taken" % label,
           r.stderr.decode()[-1000:])
        if os.path.exists(shot):
            screenshot_checks(shot, width, label)
            if os.environ.get("KEEP_SHOTS"):
                shutil.copy(shot, os.path.join(os.environ["KEEP_SHOTS"], label + ".png"))

    # the page is never wider than the window; the tasks table scrolls inside its own box
    # on a phone and fits it on a desktop, its ids cut as the table cuts them
    measured = os.path.join(work, "measured.html")
    with open(measured, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", MEASURE + "</body>", 1))
    for width, label in ((1280, "desktop"), (390, "phone")):
        r = br.run("file://" + measured, "--headless=new", "--window-size=%d,1800" % width,
                   "--dump-dom")
        m = re.search(r'data-measure="([^"]*)"', r.stdout.decode("utf-8", "replace"))
        got = json.loads(html.unescape(m.group(1))) if m else {}
        ok(got and got["doc"] <= got["win"] and not got["out"],
           "%s: the page is no wider than the window (%s of %s px)"
           % (label, got.get("doc"), got.get("win")), str(got) + r.stderr.decode()[-500:])
        if label == "desktop":
            ok(got and got["table"] <= got["box"],
               "desktop: the tasks table fits its box (%s of %s px)"
               % (got.get("table"), got.get("box")), got)
            ok(got and len(got["id"]) == 8 and len(got["title"]) == 32 and
               got["title"].startswith(got["id"]),
               "task ids cut to 8 characters, the whole id on hover", got)

    pdf = os.path.join(work, "print.pdf")
    r = br.run(url, "--no-pdf-header-footer", "--print-to-pdf=" + pdf)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", open(pdf, "rb").read())) if os.path.exists(pdf) else 0
    ok(r.returncode == 0 and pages >= 2, "it prints (%d PDF pages)" % pages, r.stderr.decode()[-1000:])

    # hostile text stays text: markup in every string the page shows
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    hostile = os.path.join(work, "hostile.json")
    with open(hostile, "w") as f:
        json.dump({"tasks": [{
            "taskArn": "arn:aws:ecs:us-east-1:1:task/prod/abc<b>def",
            "clusterArn": "arn:aws:ecs:us-east-1:1:cluster/" + evil,
            "taskDefinitionArn": "arn:aws:ecs:us-east-1:1:task-definition/" + evil + ":1",
            "group": "service:" + evil, "lastStatus": "STOPPED", "stopCode": evil,
            "stoppedReason": evil, "createdAt": "2026-11-30T08:00:00Z",
            "pullStartedAt": "2026-11-30T08:00:10Z", "stoppedAt": "2026-11-30T08:00:40Z",
            "tags": [{"key": "team", "value": evil}]}]}, f)
    r = ecsprof("report", "--format", "html", "--group-by", "tag:team", hostile)
    out = r.stdout.decode("utf-8", "replace")
    ok(r.returncode == 0 and "<script" not in out.lower() and "<img" not in out.lower()
       and "abc<b>def" not in out and "abc&lt;b&gt;def" in out and "&lt;script&gt;" in out,
       "markup in the input is escaped, never run", r.stderr.decode() + out[:0])
    check_hostile_text(work, br)

    # 50,000 tasks: the waterfall aggregates and says so, the file stays small
    big = os.path.join(work, "big.json")
    bigset.write(big, 50000)
    bigpage = os.path.join(work, "big.html")
    t0 = time.monotonic()
    r = ecsprof("report", "--format", "html", "-o", bigpage, "--group-by", "taskdef", big)
    secs = time.monotonic() - t0
    size = os.path.getsize(bigpage) if os.path.exists(bigpage) else 0
    ok(r.returncode == 0, "50,000 tasks: written in %.1f s" % secs, r.stderr.decode())
    ok(0 < size < 3 * 1024 * 1024, "50,000 tasks: the page is %.2f MB (under 3 MB)" % (size / 1048576))
    bigtext = open(bigpage, encoding="utf-8").read() if size else ""
    rows = bigtext.count('<g class="row')
    ok(0 < rows <= 400 and "each row stands for 125 consecutive tasks" in bigtext,
       "50,000 tasks: the waterfall has %d rows of 125 tasks and says so" % rows)
    ok("The first 2000 of 50000 tasks are listed" in bigtext,
       "50,000 tasks: the task table says it is cut")
    r = br.run("file://" + bigpage, "--dump-dom")
    ok(r.returncode == 0 and b"Where the time went: 50000 tasks" in r.stdout,
       "50,000 tasks: chromium renders it", r.stderr.decode()[-1000:])


if __name__ == "__main__":
    sys.exit(main())
