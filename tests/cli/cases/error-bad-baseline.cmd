ecsprof report --summary --group-by taskdef --baseline nope examples/scaleout.json
