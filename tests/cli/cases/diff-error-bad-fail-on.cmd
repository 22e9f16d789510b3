ecsprof diff tests/fixtures/diff/digest/base.json tests/fixtures/diff/digest/new.json --fail-on 'pull.p5O>+10s'
