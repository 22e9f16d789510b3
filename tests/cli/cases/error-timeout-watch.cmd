ecsprof watch --cluster prod --timeout 10m --count 1
