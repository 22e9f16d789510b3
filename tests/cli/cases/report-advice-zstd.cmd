ecsprof report --format csv --task 2c3d4e5f6a7b42930415c6d7e8f9a0b1 tests/fixtures/images/recording.jsonl
