ecsprof report --task ddc4d3705503ebe5b0fd93b3aea0a2e6 tests/fixtures/diagnose/rules.json
