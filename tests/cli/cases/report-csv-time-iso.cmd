ecsprof report --format csv --time-format iso tests/fixtures/input/describe_epoch.json
