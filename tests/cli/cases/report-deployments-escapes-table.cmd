ecsprof report --deployments --format table examples/scaleout.json tests/fixtures/deploy/describe-services-escapes.json
