ecsprof diff --split 2025-06-01 tests/fixtures/diff/digest/base.json tests/fixtures/diff/digest/new.json
