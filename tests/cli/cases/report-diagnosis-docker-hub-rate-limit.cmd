ecsprof report --task 7baaa30063bd525c3e1eae207f69d1b9 tests/fixtures/diagnose/rules.json
