ecsprof report --format csv --task 5f6a7b8c9d0e45c63748f9a0b1c2d3e4 tests/fixtures/images/recording.jsonl
