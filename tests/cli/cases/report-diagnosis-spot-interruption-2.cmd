ecsprof report --task cb89cba10add391291c50f2310742f58 tests/fixtures/diagnose/rules.json
