ecsprof report --format csv examples/events.jsonl
