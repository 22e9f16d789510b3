ecsprof report --format csv --task 6a7b8c9d0e1f46d74859a0b1c2d3e4f5 tests/fixtures/images/recording.jsonl tests/fixtures/images/metadata-overlayfs.json
