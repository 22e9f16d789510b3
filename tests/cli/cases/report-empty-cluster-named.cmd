ecsprof report --cluster nosuch examples/scaleout.json
