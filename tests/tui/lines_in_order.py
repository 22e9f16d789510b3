#!/usr/bin/env python3
"""Exit 0 when every non-empty line of SAMPLE occurs in ACTUAL in the same order; a sample
line ending in '...' matches any line it begins. Usage: lines_in_order.py ACTUAL SAMPLE"""
import sys

actual = open(sys.argv[1], encoding="utf-8").read().split("\n")
sample = [l for l in open(sys.argv[2], encoding="utf-8").read().split("\n") if l]
i = 0
for want in sample:
    prefix = want[:-3] if want.endswith("...") else None
    while i < len(actual) and not (actual[i] == want or (prefix and actual[i].startswith(prefix))):
        i += 1
    if i == len(actual):
        print(f"not in the output (in this order): {want!r}", file=sys.stderr)
        sys.exit(1)
    i += 1
