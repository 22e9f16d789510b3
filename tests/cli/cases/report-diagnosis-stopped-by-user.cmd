ecsprof report --task 352809e2c13b40a80b634cc8254b0eb8 tests/fixtures/diagnose/rules.json
