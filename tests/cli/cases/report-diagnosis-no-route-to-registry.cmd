ecsprof report --task 811049664d786c35ce1e832ba78f0479 tests/fixtures/diagnose/rules.json
