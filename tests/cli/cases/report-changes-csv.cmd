ecsprof report --changes --format csv tests/fixtures/diff/history/history.json
