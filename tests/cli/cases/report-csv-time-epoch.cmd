ecsprof report --format csv --time-format epoch tests/fixtures/input/describe_epoch.json
