ecsprof report --task a16e9388f8bdef6362001294b1ba3711 tests/fixtures/diagnose/rules.json
