ecsprof report tests/fixtures/input/bad_tasks_not_array.json
