ecsprof report --changes --changes-by week tests/fixtures/diff/history/history.json
