ecsprof report -v --status stopped examples/scaleout.json
