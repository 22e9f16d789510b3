ecsprof report --task e58afcbcb0931183ca987bff698b8c80 tests/fixtures/diagnose/rules.json
