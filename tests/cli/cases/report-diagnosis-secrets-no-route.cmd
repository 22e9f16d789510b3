ecsprof report --task 14535373cf1de67f30ddc1222d6ed730 tests/fixtures/diagnose/rules.json
