ecsprof report --scaleout --format csv examples/scaleout.json tests/fixtures/scaleout/watch-no-registered-events.jsonl
