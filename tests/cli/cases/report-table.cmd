ecsprof report examples/scaleout.json
