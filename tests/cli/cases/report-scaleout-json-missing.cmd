ecsprof report --scaleout --format json tests/fixtures/scaleout/activities.json tests/fixtures/scaleout/alarms.json
