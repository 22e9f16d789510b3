ecsprof report --interval 3 examples/scaleout.json
