ecsprof watch --help
