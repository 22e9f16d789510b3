ecsprof report tests/fixtures/input/unknown_shape.json
