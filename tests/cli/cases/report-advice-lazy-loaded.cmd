ecsprof report --format csv --task 4e5f6a7b8c9d44b52637e8f9a0b1c2d3 tests/fixtures/images/recording.jsonl tests/fixtures/images/metadata-soci.json
