ecsprof report --format xml examples/scaleout.json
