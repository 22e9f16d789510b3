ecsprof report --scaleout --format csv examples/scaleout.json examples/scaleout-sources.jsonl
