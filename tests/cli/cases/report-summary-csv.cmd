ecsprof report --summary --format csv --group-by taskdef examples/scaleout.json
