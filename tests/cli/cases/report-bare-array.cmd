ecsprof report --format csv tests/fixtures/input/bare_array.json
