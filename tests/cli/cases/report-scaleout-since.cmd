ecsprof report --scaleout --since 2026-11-30T14:00 examples/scaleout.json examples/scaleout-sources.jsonl
