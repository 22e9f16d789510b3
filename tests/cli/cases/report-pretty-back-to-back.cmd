ecsprof report --format table tests/fixtures/export/events-pretty.json
