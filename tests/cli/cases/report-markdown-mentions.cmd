ecsprof report --format markdown --group-by tag:owner tests/fixtures/output/mentions-describe.json
