ecsprof report --task 4d4eae41fadb631e75d85d6a2ddac4f4 tests/fixtures/diagnose/rules.json
