ecsprof report tests/fixtures/export/list-tasks.json
