ecsprof --help
