ecsprof report --task a2c33187f5b64eaa78204f03042fd231 tests/fixtures/diagnose/rules.json
