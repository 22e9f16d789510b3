ecsprof report --format csv tests/fixtures/input/recording.jsonl
