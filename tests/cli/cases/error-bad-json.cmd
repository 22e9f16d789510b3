ecsprof report tests/fixtures/input/bad_json.json
