ecsprof report --task b7370b4ad9e07ef9df43bcf03f40e4f0 tests/fixtures/diagnose/rules.json
