ecsprof report --task 06ae31a5fedd7f811a9916151c722b04 tests/fixtures/diagnose/rules.json
