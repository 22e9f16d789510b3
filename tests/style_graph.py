#!/usr/bin/env python3
"""tests/style.sh's graph checks (issue 32 items 4 and 7), one per mode:

  style_graph.py cycles OBJDIR [KNOWN]   no include or call cycle between the .c files
  style_graph.py statics OBJDIR [ALLOW]  no writable static outside ALLOW

Run from the source tree (SRCDIR). OBJDIR is the build directory: its objects are meson's
`lib*.a.p/src_LAYER_FILE.c.o`, one per src/LAYER/FILE.c (a layer's folder name has no
underscore, so the name maps back to its file).

cycles: the include graph has an edge A -> B when A.c, or A's own header, includes B's
header (a header with no .c of its own, such as input_int.h, is followed through to what it
includes); the call graph has an edge A -> B when A.o needs a symbol B.o defines (nm). A
strongly connected component of more than one file is a cycle: each is printed as
"include cycle: f1 f2 ..." or "call cycle: ...". KNOWN is a file of lines "f1 f2 ..." (the
cycles not broken yet, each a set of files, '#' comments): a cycle whose files are all in
one KNOWN line is printed as "known ..." and does not fail; any other fails (exit 1).

statics: every data object in a writable section (.data, .bss, .tdata, .tbss, common; not
.data.rel.ro, which is read-only once relocated) of a src object is a writable static or a
writable global: process-wide mutable state. ALLOW is a file of lines "src/L/F.c [SYMBOL]"
(the signal-handling files, whose flags are what a handler may write): a hit in an allowed
file (and symbol, when one is named) passes."""
import glob
import os
import re
import subprocess
import sys


def objects(objdir):
    """{src/L/F.c: path of its object} for every src object under OBJDIR"""
    out = {}
    for o in glob.glob(os.path.join(objdir, "*.a.p", "src_*.c.o")):
        base = os.path.basename(o)[len("src_"):-len(".c.o")]
        layer, _, name = base.partition("_")
        out["src/%s/%s.c" % (layer, name)] = o
    return out


def read_known(path):
    sets = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].split()
                if line:
                    sets.append(frozenset(line))
    return sets


def include_graph():
    cfiles = sorted(glob.glob("src/*/*.c"))
    module = {}   # module name -> its .c file
    for c in cfiles:
        module[os.path.basename(c)[:-2]] = c
    inc_re = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)

    def resolve(inc, here):
        for cand in (os.path.join("include", inc), os.path.join(here, inc)):
            if os.path.isfile(cand):
                return os.path.normpath(cand)
        return None

    includes = {}

    def incs(path):
        if path not in includes:
            with open(path, errors="replace") as f:
                found = [resolve(i, os.path.dirname(path)) for i in inc_re.findall(f.read())]
            includes[path] = [h for h in found if h]
        return includes[path]

    def header_module(h):
        return module.get(os.path.basename(h)[:-2])

    def deps_of(paths):
        """the modules reached from PATHS' includes, through headers of no module"""
        out, seen, todo = set(), set(paths), list(paths)
        while todo:
            for h in incs(todo.pop()):
                m = header_module(h)
                if m is not None:
                    out.add(m)
                elif h not in seen:
                    seen.add(h)
                    todo.append(h)
        return out

    graph = {}
    for c in cfiles:
        own = [c]
        name = os.path.basename(c)[:-2]
        for h in (os.path.join(os.path.dirname(c), name + ".h"),
                  os.path.join("include", "ecsprof", name + ".h")):
            if os.path.isfile(h):
                own.append(h)
        graph[c] = deps_of(own) - {c}
    return graph


def call_graph(objs):
    """one nm for every object (a fork per object made this check slow on a busy machine)"""
    path_to_c = {o: c for c, o in objs.items()}
    syms = {c: (set(), set()) for c in objs}
    r = subprocess.run(["nm", "-P", "-A"] + sorted(objs.values()), capture_output=True,
                       text=True, check=True)
    for line in r.stdout.splitlines():
        # "OBJ: SYMBOL TYPE [VALUE SIZE]"
        head, _, rest = line.partition(": ")
        f = rest.split()
        if len(f) < 2 or head not in path_to_c:
            continue
        sym, kind = f[0], f[1]
        d, u = syms[path_to_c[head]]
        if kind == "U":
            u.add(sym)
        elif kind.isupper():
            d.add(sym)
    owner = {}
    for c, (d, _) in syms.items():
        for s in d:
            owner[s] = c
    graph = {}
    for c, (_, u) in syms.items():
        graph[c] = {owner[s] for s in u if s in owner and owner[s] != c}
    return graph


def sccs(graph):
    """Tarjan's strongly connected components of more than one node, sorted"""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def cycles(objdir, known_path):
    known = read_known(known_path)
    objs = objects(objdir)
    if not objs:
        print("no objects under %s: build first" % objdir)
        return 1
    new = 0
    for kind, graph in (("include", include_graph()), ("call", call_graph(objs))):
        for comp in sccs(graph):
            if any(set(comp) <= k for k in known):
                print("known %s cycle (not broken yet): %s" % (kind, " ".join(comp)))
            else:
                print("%s cycle: %s" % (kind, " ".join(comp)))
                new += 1
    return 1 if new else 0


WRITABLE = re.compile(r"^\.(data|bss|tdata|tbss)(\.|$)")


def statics(objdir, allow_path):
    allow = {}
    if allow_path and os.path.exists(allow_path):
        with open(allow_path) as f:
            for line in f:
                f_ = line.split("#", 1)[0].split()
                if f_:
                    allow.setdefault(f_[0], set()).update(f_[1:] or ["*"])
    objs = objects(objdir)
    if not objs:
        print("no objects under %s: build first" % objdir)
        return 1
    bad = 0
    path_to_c = {o: c for c, o in objs.items()}
    r = subprocess.run(["objdump", "-t"] + sorted(objs.values()), capture_output=True,
                       text=True, check=True)
    c = None
    for line in r.stdout.splitlines():
        # "OBJ:     file format elf64-x86-64", then its symbols:
        # "0000000000000000 l     O .bss	0000000000000008 log_sink"
        if ":     file format " in line:
            c = path_to_c.get(line.split(":     file format ")[0])
            continue
        m = re.match(r"^[0-9a-f]+ (.{7}) (\S+)\s+[0-9a-f]+\s+(\S+)$", line)
        if c is None or not m:
            continue
        sect, sym = m.group(2), m.group(3)
        # data objects, and thread-locals (objdump gives them no "O")
        if "O" not in m.group(1) and not sect.startswith((".tbss", ".tdata")):
            continue
        if sect.startswith(".data.rel.ro") or not (WRITABLE.match(sect) or sect == "*COM*"):
            continue
        # what an instrumented build adds (gcov counters, sanitizers' tables)
        if sym.startswith(("__gcov", "__llvm_", "__asan", "__odr_asan", "__sancov", "__ubsan", "__tsan", ".L")):
            continue
        a = allow.get(c, set())
        if "*" in a or sym.split(".")[0] in a:
            continue
        print("%s: writable static %s (%s)" % (c, sym, sect))
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    mode, objdir = sys.argv[1], sys.argv[2]
    extra = sys.argv[3] if len(sys.argv) > 3 else None
    sys.exit((cycles if mode == "cycles" else statics)(objdir, extra))
