ecsprof report --format csv --task 3d4e5f6a7b8c43a41526d7e8f9a0b1c2 tests/fixtures/images/recording.jsonl
