ecsprof diff --help
