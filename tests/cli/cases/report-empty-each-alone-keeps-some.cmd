ecsprof report --status running --task 313da244 examples/scaleout.json
