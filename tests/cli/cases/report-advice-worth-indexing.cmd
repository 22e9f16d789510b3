ecsprof report --format csv --task 0a1b2c3d4e5f40718293a4b5c6d7e8f9 tests/fixtures/images/recording.jsonl
