ecsprof record --summary --cluster prod -o recording.jsonl
