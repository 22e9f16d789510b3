ecsprof report --summry examples/scaleout.json
