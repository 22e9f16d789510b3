ecsprof report --scaleout tests/fixtures/scaleout/health-no-time.json
