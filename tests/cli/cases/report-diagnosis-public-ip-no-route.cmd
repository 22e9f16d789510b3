ecsprof report --task a4253be98aec552f9e8eb026b8d140fb tests/fixtures/diagnose/rules.json
