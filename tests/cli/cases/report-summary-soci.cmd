ecsprof report --summary --group-by soci --soci-if taskdef=checkout-api:8 examples/scaleout.json
