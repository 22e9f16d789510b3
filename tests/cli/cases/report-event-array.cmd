ecsprof report --format csv tests/fixtures/input/event_array.json
