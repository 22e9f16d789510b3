ecsprof report --task fa02a533ece1b16387b623adc5b527e7 tests/fixtures/diagnose/rules.json
