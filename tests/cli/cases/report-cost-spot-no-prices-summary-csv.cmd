ecsprof report --summary --format csv --group-by capacity-provider --baseline FARGATE tests/fixtures/cost/spot-arm.json
