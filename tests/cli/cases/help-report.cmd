ecsprof report --help
