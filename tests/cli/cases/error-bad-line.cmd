ecsprof report tests/fixtures/input/bad_line.jsonl
