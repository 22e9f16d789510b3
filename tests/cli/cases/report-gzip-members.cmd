ecsprof report --format table tests/fixtures/export/events-2members.gz
