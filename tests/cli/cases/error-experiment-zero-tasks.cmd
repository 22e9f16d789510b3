ecsprof experiment --cluster exp --arm a=web:7 --arm b=web:8 -n 0 --subnets subnet-1 --yes --dry-run
