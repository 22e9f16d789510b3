ecsprof experiment --cluster exp --arm a=web:7 --arm b=web:8 --subnets subnet-1 --timeout 90 --request-timeout 0 --dry-run
