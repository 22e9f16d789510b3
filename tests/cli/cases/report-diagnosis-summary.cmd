ecsprof report --summary tests/fixtures/diagnose/rules.json
