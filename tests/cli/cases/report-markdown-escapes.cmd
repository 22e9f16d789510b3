ecsprof report --format markdown --group-by taskdef tests/fixtures/output/nasty-describe.json
