ecsprof report tests/fixtures/export/events-truncated.gz
