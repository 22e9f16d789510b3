ecsprof report --task 98c5888d11645855644700f1f52d8913 tests/fixtures/diagnose/rules.json
