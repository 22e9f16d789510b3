ecsprof report --task 1c70d60229f0eb288d18da43322fbf90 tests/fixtures/diagnose/rules.json
