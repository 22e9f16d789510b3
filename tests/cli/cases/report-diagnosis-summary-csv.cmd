ecsprof report --summary --format csv tests/fixtures/diagnose/rules.json
