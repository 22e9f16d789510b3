ecsprof report --format table tests/fixtures/export/cwlogs-export.gz
