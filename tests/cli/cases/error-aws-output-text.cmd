ecsprof report tests/fixtures/export/describe-tasks.txt
