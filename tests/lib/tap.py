"""TAP for the Python test scripts: collect checks with ok(), print them with report()."""


class Tap:
    def __init__(self):
        self.results = []

    def ok(self, cond, name, detail=""):
        """One check; detail (the screen, the output) is printed under a failed one."""
        self.results.append((bool(cond), name, detail))

    def report(self):
        """Prints the plan and the checks; the exit status (1 when one failed)."""
        print("1..%d" % len(self.results))
        bad = 0
        for i, (good, name, detail) in enumerate(self.results, 1):
            print("%s %d - %s" % ("ok" if good else "not ok", i, name))
            if not good:
                bad = 1
                for line in str(detail).splitlines()[:30]:
                    print("#   " + line)
        return bad
