ecsprof tasks --cluster prod --timeout 5
