ecsprof report --format markdown --summary --group-by image tests/fixtures/output/mentions-describe.json
