ecsprof report --format csv --task 1b2c3d4e5f6a41829304b5c6d7e8f9a0 tests/fixtures/images/recording.jsonl
