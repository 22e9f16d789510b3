ecsprof report --format csv --time-format spreadsheet tests/fixtures/input/describe_epoch.json
