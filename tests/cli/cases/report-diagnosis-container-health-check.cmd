ecsprof report --task 4ae44d0c9129bb2270634f2db3d2728b tests/fixtures/diagnose/rules.json
