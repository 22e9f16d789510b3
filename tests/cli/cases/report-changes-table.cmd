ecsprof report --changes tests/fixtures/diff/history/history.json
