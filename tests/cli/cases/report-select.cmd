ecsprof report --status stopped --format csv examples/scaleout.json
