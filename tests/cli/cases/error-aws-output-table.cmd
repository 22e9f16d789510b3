ecsprof report tests/fixtures/export/describe-tasks-table.txt
