ecsprof report --summary --format csv --group-by taskdef --baseline web:1 tests/fixtures/input/two_vs_twelve_ties.json
