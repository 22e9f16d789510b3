ecsprof report --format markdown tests/fixtures/cost/spot-arm.json
