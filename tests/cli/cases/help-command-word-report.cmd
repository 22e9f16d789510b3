ecsprof help report
