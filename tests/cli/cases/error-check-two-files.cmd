ecsprof check examples/rerank-api.json tests/fixtures/check/broken.json
