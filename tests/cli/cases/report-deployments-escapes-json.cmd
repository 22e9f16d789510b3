ecsprof report --deployments --format json examples/scaleout.json tests/fixtures/deploy/describe-services-escapes.json
