ecsprof report --format csv tests/fixtures/input/describe_cli_iso.json
