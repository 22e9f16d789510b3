ecsprof report --format csv --task 9d0e1f2a3b4c49a07b8cd3e4f5a6b7c8 tests/fixtures/images/recording.jsonl
