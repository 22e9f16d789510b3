ecsprof report --format csv tests/fixtures/input/describe_epoch.json
