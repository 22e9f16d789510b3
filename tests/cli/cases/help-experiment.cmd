ecsprof experiment --help
