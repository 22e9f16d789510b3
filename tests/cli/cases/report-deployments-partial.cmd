ecsprof report --deployments --format csv tests/fixtures/deploy/services-partial.json
