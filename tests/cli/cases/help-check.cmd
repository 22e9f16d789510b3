ecsprof check --help
