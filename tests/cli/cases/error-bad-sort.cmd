ecsprof report --sort speed examples/scaleout.json
