ecsprof report --summary --format markdown --group-by capacity-provider --baseline FARGATE --prices tests/fixtures/cost/prices.txt tests/fixtures/cost/spot-arm.json
