ecsprof check --region eu-central-1 --platform-version 1.3.0 tests/fixtures/check/described.json
