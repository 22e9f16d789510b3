ecsprof report --format csv --since 2026-12-01 examples/scaleout.json
