ecsprof report --scaleout examples/scaleout.json tests/fixtures/scaleout/activities.json tests/fixtures/scaleout/alarms.json
