ecsprof report --deployments --format markdown examples/scaleout.json tests/fixtures/deploy/describe-services.json
