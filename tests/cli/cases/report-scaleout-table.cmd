ecsprof report --scaleout examples/scaleout.json examples/scaleout-sources.jsonl
