ecsprof report --task ac786a7258af2d6fde86d635133c95eb tests/fixtures/diagnose/rules.json
