ecsprof report --format csv -
stdin: examples/scaleout-api.json
