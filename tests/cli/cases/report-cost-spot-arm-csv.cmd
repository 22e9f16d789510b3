ecsprof report --format csv --prices tests/fixtures/cost/prices.txt tests/fixtures/cost/spot-arm.json
