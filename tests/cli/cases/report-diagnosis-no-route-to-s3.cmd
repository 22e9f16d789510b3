ecsprof report --task 5b7ae7058d2184237b5b99bbbe3efc76 tests/fixtures/diagnose/rules.json
