ecsprof report --task b14889ffdec8e661d014e351bb13e89f tests/fixtures/diagnose/rules.json
