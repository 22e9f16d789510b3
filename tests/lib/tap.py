"""TAP for the Python test scripts: results kept as they come, printed at the end with the
detail of each failure as comment lines; the exit status says whether all passed."""


class Tap:
    def __init__(self):
        self.results = []

    def ok(self, cond, name, detail=""):
        self.results.append((bool(cond), name, detail))

    def finish(self):
        """Prints the plan and the results; 0 when every check passed, else 1."""
        print("1..%d" % len(self.results))
        for i, (good, name, detail) in enumerate(self.results, 1):
            print("%s %d - %s" % ("ok" if good else "not ok", i, name))
            if not good and detail:
                for line in str(detail).splitlines():
                    print("#   " + line)
        return 0 if all(r[0] for r in self.results) else 1
