ecsprof report --task 9dfcb50d106981b59182129c24c3b186 tests/fixtures/diagnose/rules.json
