ecsprof experiment --cluster exp --arm a=web:7 --arm b=web:8 --group-by soci -o x.jsonl
