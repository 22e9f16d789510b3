ecsprof diff tests/fixtures/diff/digest/base.json
