ecsprof report --format table --time-format epoch examples/scaleout.json
