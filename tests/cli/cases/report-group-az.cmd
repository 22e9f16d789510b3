ecsprof report --summary --group-by az --baseline us-east-1a examples/scaleout.json
