ecsprof check --region us-east-1 examples/rerank-api.json
