ecsprof report tests/fixtures/input/bad_record_no_task.jsonl
