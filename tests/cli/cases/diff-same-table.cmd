ecsprof diff tests/fixtures/diff/same/base.json tests/fixtures/diff/same/new.json --fail-on 'total.p90>+5%' --fail-on 'pull.p50>+1s'
