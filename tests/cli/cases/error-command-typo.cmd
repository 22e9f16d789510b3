ecsprof tsks --cluster prod
