ecsprof report --deployments --format csv -
stdin: tests/fixtures/deploy/deployment-events.jsonl
