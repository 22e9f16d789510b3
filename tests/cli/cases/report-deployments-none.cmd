ecsprof report --deployments --service nope examples/scaleout.json tests/fixtures/deploy/describe-services.json
