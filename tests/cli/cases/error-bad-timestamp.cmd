ecsprof report --format csv tests/fixtures/input/bad_timestamp.json
