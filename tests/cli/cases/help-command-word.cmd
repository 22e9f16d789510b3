ecsprof help
