ecsprof report --format csv tests/fixtures/input/event_single.json
