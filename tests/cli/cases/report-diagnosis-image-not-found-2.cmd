ecsprof report --task 736e3d58a5d7998ac0abe52161c0555a tests/fixtures/diagnose/rules.json
