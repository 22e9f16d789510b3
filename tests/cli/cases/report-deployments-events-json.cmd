ecsprof report --deployments --format json examples/scaleout.json tests/fixtures/deploy/deployment-events.jsonl
