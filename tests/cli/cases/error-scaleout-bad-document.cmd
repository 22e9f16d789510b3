ecsprof report --scaleout examples/scaleout.json tests/fixtures/scaleout/bad-history.json
