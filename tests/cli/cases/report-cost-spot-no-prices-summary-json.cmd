ecsprof report --summary --format json --group-by capacity-provider --baseline FARGATE tests/fixtures/cost/spot-arm.json
