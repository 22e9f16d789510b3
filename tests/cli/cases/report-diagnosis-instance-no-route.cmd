ecsprof report --task 8153a64fcef47f923dfde0a66c500aef tests/fixtures/diagnose/rules.json
