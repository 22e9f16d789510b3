ecsprof report --format csv tests/fixtures/input/single_task.json
