ecsprof report --task b0529a0d154721c8b5db1ce00d2402a4 tests/fixtures/diagnose/rules.json
