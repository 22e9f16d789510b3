ecsprof experiment --cluster exp --arm a=web:7 --arm b=web:8 --service web -o x.jsonl
