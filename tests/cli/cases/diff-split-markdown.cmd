ecsprof diff --split 2026-12-01 tests/fixtures/diff/digest/base.json tests/fixtures/diff/digest/new.json --format markdown
