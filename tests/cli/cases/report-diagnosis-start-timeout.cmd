ecsprof report --task 77e2c852b4fa7510e267bf6321fc08e0 tests/fixtures/diagnose/rules.json
