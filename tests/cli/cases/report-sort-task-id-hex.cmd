ecsprof report --format table --sort task_id examples/scaleout.json
