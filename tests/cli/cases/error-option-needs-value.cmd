ecsprof tasks --group-by
