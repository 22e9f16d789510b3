ecsprof report --bogus examples/scaleout.json
