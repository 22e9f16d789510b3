ecsprof report tests/fixtures/input/no-such-file.json
