ecsprof report --summary --format csv --group-by capacity-provider --baseline FARGATE --prices tests/fixtures/cost/prices.txt tests/fixtures/cost/spot-arm.json
