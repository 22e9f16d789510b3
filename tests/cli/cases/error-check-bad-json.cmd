ecsprof check --region us-east-1 tests/fixtures/check/bad-json.json
