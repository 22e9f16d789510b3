"""The hostile text of issue 31 items 2-5, shared by xlsx_read.py and html_render.py: a
recording whose strings carry noncharacters (U+FFFE, U+FFFF, U+FDD0: not well-formed in
XML), a literal _xHHHH_ (Excel's escape), bidi controls (the set termsafe removes) and VT
and FF; and what a shared text may show of them (termsafe_cp_unsafe's set in Python)."""
import json
import re

NONCHARS = "nc\ufffea\uffffb\ufdd0c\U0001fffed"
ESCAPE = "_x0041_ and _X263a_ and _x00_"
BIDI = "abc\u202eexe.fdp\u202c\u2066x\u2069\u200ey\u200fz\u061cw\u202a"
VTFF = "vt\x0bff\x0cfs\x1cend"
STRINGS = (NONCHARS, ESCAPE, BIDI, VTFF)


def unsafe(ch):
    """termsafe_cp_unsafe (src/base/termsafe.c)"""
    cp = ord(ch)
    return ((cp < 0x20 and ch not in "\t\n\r") or 0x7f <= cp <= 0x9f or
            cp in (0x061c, 0x200e, 0x200f) or 0x202a <= cp <= 0x202e or
            0x2066 <= cp <= 0x2069 or 0xfdd0 <= cp <= 0xfdef or (cp & 0xfffe) == 0xfffe)


def shown(s, repl="?"):
    """s as a shared output should show it: each unsafe code point replaced"""
    return "".join(repl if unsafe(c) else c for c in s)


def any_unsafe(s):
    return sorted({"U+%04X" % ord(c) for c in s if unsafe(c)})


def excel_text(s):
    """what Excel shows of a stored string: _xHHHH_ is the escape of code point HHHH"""
    return re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), s)


def write(path):
    """one stopped task per string: it is the stop code, the reason and the team tag"""
    tasks = []
    for i, s in enumerate(STRINGS):
        tasks.append({
            "taskArn": "arn:aws:ecs:us-east-1:1:task/prod/hostile%d" % i,
            "clusterArn": "arn:aws:ecs:us-east-1:1:cluster/prod",
            "taskDefinitionArn": "arn:aws:ecs:us-east-1:1:task-definition/web:1",
            "group": "service:web", "lastStatus": "STOPPED", "stopCode": s,
            "stoppedReason": s, "createdAt": "2026-11-30T08:00:00Z",
            "pullStartedAt": "2026-11-30T08:00:10Z", "stoppedAt": "2026-11-30T08:00:40Z",
            "tags": [{"key": "team", "value": s}]})
    with open(path, "w") as f:
        json.dump({"tasks": tasks}, f)
