ecsprof report --format csv --task 8c9d0e1f2a3b48f96a7bc2d3e4f5a6b7 tests/fixtures/images/recording.jsonl
