ecsprof report --format csv examples/scaleout-api.json
