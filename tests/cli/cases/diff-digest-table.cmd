ecsprof diff tests/fixtures/diff/digest/base.json tests/fixtures/diff/digest/new.json --fail-on 'pull.p50>+10s'
