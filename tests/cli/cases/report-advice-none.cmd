ecsprof report --format csv --task ae1f2a3b4c5d4ab18c9de4f5a6b7c8d9 tests/fixtures/images/recording.jsonl
