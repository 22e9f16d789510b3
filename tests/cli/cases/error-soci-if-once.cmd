ecsprof report --soci-if bogus examples/scaleout.json
