ecsprof report --task 848ca2d17e7081fe6dab6bdabba1d87f tests/fixtures/diagnose/rules.json
