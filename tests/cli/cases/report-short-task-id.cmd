ecsprof report --task 313da244 examples/scaleout.json
