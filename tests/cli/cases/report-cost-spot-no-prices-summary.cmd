ecsprof report --summary --group-by capacity-provider --baseline FARGATE tests/fixtures/cost/spot-arm.json
