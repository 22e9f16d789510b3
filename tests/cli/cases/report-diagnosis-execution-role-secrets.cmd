ecsprof report --task 3da4998d5a4deb36c8a631ac073f1985 tests/fixtures/diagnose/rules.json
