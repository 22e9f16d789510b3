ecsprof report --task 66b38cb5c5b5d13b3c88421359812a8a tests/fixtures/diagnose/rules.json
