ecsprof report tests/fixtures/export/report-output.csv
