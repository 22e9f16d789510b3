ecsprof report --status STOPPED examples/scaleout.json
