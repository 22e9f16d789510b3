ecsprof report --since 2h examples/scaleout.json
