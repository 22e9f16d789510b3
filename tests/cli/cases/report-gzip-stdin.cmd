ecsprof report --format table -
stdin: tests/fixtures/export/events.jsonl.gz
