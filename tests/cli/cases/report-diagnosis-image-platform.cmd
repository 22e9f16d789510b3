ecsprof report --task b25a4ebd9d313733b7d9eb7f758cce79 tests/fixtures/diagnose/rules.json
