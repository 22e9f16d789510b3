ecsprof report --scaleout --format html tests/fixtures/scaleout/activities.json tests/fixtures/scaleout/alarms.json
