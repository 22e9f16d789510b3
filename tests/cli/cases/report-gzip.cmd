ecsprof report --format csv tests/fixtures/export/events.jsonl.gz
