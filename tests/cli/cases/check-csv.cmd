ecsprof check --region us-east-1 --format csv tests/fixtures/check/broken.json
