ecsprof report --count 2 examples/scaleout.json
