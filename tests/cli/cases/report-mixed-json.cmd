ecsprof report --format json --sort total_s:desc examples/scaleout-api.json examples/metadata/f513d2e1a9f57ad525d0f76adef968e2.json
