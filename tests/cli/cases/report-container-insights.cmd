ecsprof report --format csv tests/fixtures/export/insights-performance.jsonl
