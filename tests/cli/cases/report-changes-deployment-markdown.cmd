ecsprof report --changes --changes-by deployment --format markdown tests/fixtures/diff/history/history.json
