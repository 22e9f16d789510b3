ecsprof check --format html examples/rerank-api.json
