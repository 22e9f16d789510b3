ecsprof report --group-by colour examples/scaleout.json
