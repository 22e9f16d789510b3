ecsprof report --format table tests/fixtures/export/firehose-events
