ecsprof report --format csv tests/fixtures/cost/healthy.jsonl
