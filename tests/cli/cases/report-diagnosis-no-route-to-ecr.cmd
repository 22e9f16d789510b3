ecsprof report --task ef34ff909f8395b861a3cf8910e5be98 tests/fixtures/diagnose/rules.json
