ecsprof report --deployments examples/scaleout.json -
stdin: tests/fixtures/deploy/describe-services.json
