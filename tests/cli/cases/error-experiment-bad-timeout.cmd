ecsprof experiment --cluster exp --arm a=web:7 --arm b=web:8 --subnets subnet-1 --timeout 0s --dry-run
