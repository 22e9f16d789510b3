ecsprof
