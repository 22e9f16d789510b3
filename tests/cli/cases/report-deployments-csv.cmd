ecsprof report --deployments --format csv examples/scaleout.json tests/fixtures/deploy/describe-services.json
