ecsprof report --deployments examples/scaleout.json tests/fixtures/deploy/describe-services.json
