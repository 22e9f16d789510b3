ecsprof report --format table tests/fixtures/export/insights-containers-only.jsonl
