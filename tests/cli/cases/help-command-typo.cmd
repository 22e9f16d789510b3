ecsprof help tsks
