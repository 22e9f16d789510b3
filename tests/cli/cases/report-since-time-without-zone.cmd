ecsprof report --since 2026-11-30T14:03:00 examples/scaleout.json
