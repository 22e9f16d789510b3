ecsprof diff tests/fixtures/diff/digest/base.json tests/fixtures/diff/digest/new.json
columns: 80
