#!/usr/bin/env python3
"""t/check-arch.py CHECK [--root DIR] [--build DIR]: the architecture rules
of HOWTO.md's "Architecture" that t/check-layers.sh does not cover.

  links   every undefined symbol of an object of BUILD/X/*.o resolves to a
          definition in a folder that t/layers.table lets X use; crossings
          still allowed are listed in t/links.allow ("file.o defining-file.o")
  cycles  no new circle between objects: the strongly connected sets of the
          object symbol graph (A -> B when A uses a symbol B defines) are
          compared with t/cycles.allow (one set a line, files sorted)
  size    no file over 600 lines, no function over 80 lines, except those in
          t/size.allow ("file LINES" or "file:function LINES") which may not
          grow beyond LINES and must leave the list once under the limit

Each allow list only shrinks: an entry that no longer exists fails the check.
Prints "CHECK: 1 passed, 0 failed" (or "0 passed, 1 failed") and exits 1 on
a failure."""
import os
import re
import subprocess
import sys

FILE_MAX = 600
FUNC_MAX = 80


def read_table(root):
    table = {}
    with open(os.path.join(root, "t/layers.table")) as f:
        for line in f:
            m = re.match(r"^([a-z_]+):(.*)$", line)
            if m:
                table[m.group(1)] = set(m.group(2).split())
    return table


def read_allow(root, name):
    path = os.path.join(root, "t", name)
    out = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    out.append(line)
    return out


def objects(root, build):
    top = os.path.join(root, build)
    objs = []
    for d, subs, files in os.walk(top):
        rel = os.path.relpath(d, top)
        first = rel.split(os.sep)[0]
        # only the storbench objects: not t/ nor other build trees
        if rel != "." and (first == "t" or os.path.exists(os.path.join(d, "check-counts"))):
            subs[:] = []
            continue
        if rel == ".":
            # a source folder's objects; not another build tree (build/san/,
            # build/clang/...), even one still being built (make check builds
            # them in the background while this runs)
            subs[:] = [s for s in subs if s != "t" and os.path.isdir(os.path.join(root, s))
                       and not os.path.exists(os.path.join(d, s, "libstorbench.a"))]
        for f in files:
            if f.endswith(".o"):
                objs.append(os.path.normpath(os.path.join(rel, f)))
    return sorted(objs), top


def symbol_graph(root, build):
    objs, top = objects(root, build)
    if not objs:
        sys.exit("check-arch: no objects under %s: build first" % top)
    out = subprocess.run(["nm", "-A"] + objs, cwd=top, capture_output=True,
                         text=True, check=True).stdout
    defs, undef = {}, {o: set() for o in objs}
    for line in out.splitlines():
        obj, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[0] == "U":
            undef[obj].add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRCWVGS":
            defs.setdefault(parts[2], obj)
    edges = {o: {} for o in objs}
    for o, syms in undef.items():
        for s in syms:
            d = defs.get(s)
            if d and d != o:
                edges[o].setdefault(d, []).append(s)
    return objs, edges


def folder(path):
    return path.split("/", 1)[0] if "/" in path else ""


def finish(name, errors):
    for e in errors:
        print("%s: %s" % (name, e))
    if errors:
        print("%s: 0 passed, 1 failed" % name)
        return 1
    print("%s: 1 passed, 0 failed" % name)
    return 0


def check_links(root, build):
    table = read_table(root)
    objs, edges = symbol_graph(root, build)
    found = {}
    for o in objs:
        src = folder(o)
        if src not in table:
            continue
        for d, syms in edges[o].items():
            dst = folder(d)
            if dst in table[src]:
                continue
            found["%s %s" % (o, d)] = sorted(syms)
    allow = read_allow(root, "links.allow")
    errors = []
    for k, syms in sorted(found.items()):
        if k not in allow:
            o, d = k.split()
            errors.append("%s uses %s of %s: %s/ may use only %s (t/layers.table)"
                          % (o, ", ".join(syms[:4]) + (" ..." if len(syms) > 4 else ""),
                             d, folder(o), ", ".join(sorted(table[folder(o)]))))
    for k in allow:
        if k not in found:
            errors.append("t/links.allow lists '%s', which is gone: delete that line" % k)
    print("links: %d crossings still listed in t/links.allow" % len(allow), file=sys.stderr)
    return finish("links", errors)


def sccs(nodes, edges):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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
                out.append(" ".join(sorted(comp)))
    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(out)


def check_cycles(root, build):
    objs, edges = symbol_graph(root, build)
    found = sccs(objs, edges)
    allow = read_allow(root, "cycles.allow")
    errors = []
    for c in found:
        if c in allow:
            continue
        home = [a for a in allow if set(c.split()) <= set(a.split())]
        if not home:
            errors.append("new circle between %s: split the files so that one only uses the other" % c)
    for a in allow:
        if a not in found:
            inside = [c for c in found if set(c.split()) <= set(a.split())]
            errors.append("t/cycles.allow lists '%s', which is gone%s" % (
                a, ": replace that line with " + " and ".join("'%s'" % c for c in inside)
                if inside else ": delete that line"))
    print("cycles: %d circles still listed in t/cycles.allow" % len(allow), file=sys.stderr)
    return finish("cycles", errors)


FUNC_START = re.compile(r"^\{")
FUNC_END = re.compile(r"^\}")
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def sources(root):
    table = read_table(root)
    out = []
    for d in sorted(table) + ["."]:
        top = os.path.join(root, d)
        if not os.path.isdir(top):
            continue
        for dirpath, subs, files in os.walk(top):
            if d == ".":
                subs[:] = []
            subs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    out.append(os.path.normpath(os.path.relpath(os.path.join(dirpath, f), root)))
    return out


def measure(root):
    sizes = {}
    for f in sources(root):
        with open(os.path.join(root, f), errors="replace") as fh:
            lines = fh.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        sizes[f] = len(lines)
        start = None
        for i, line in enumerate(lines):
            if FUNC_START.match(line) and start is None:
                start = i
            elif FUNC_END.match(line) and start is not None:
                # the name: the last "ident(" at column 0 above the brace
                name = None
                for j in range(start - 1, max(start - 8, -1), -1):
                    m = NAME.search(lines[j])
                    if m and not lines[j].startswith((" ", "\t", "#")):
                        name = m.group(1)
                        break
                    if m:
                        name = m.group(1)
                if name and not lines[start - 1].rstrip().endswith(("=", ";")):
                    key = "%s:%s" % (f, name)
                    sizes[key] = i - start + 1
                start = None
    return sizes


def check_size(root, _build):
    sizes = measure(root)
    allow = {}
    for e in read_allow(root, "size.allow"):
        k, n = e.rsplit(None, 1)
        allow[k] = int(n)
    errors = []
    for k, n in sorted(sizes.items()):
        limit = FUNC_MAX if ":" in k else FILE_MAX
        what = "function" if ":" in k else "file"
        if n <= limit:
            if k in allow:
                errors.append("%s is %d lines, under the %s limit of %d: delete its line in t/size.allow"
                              % (k, n, what, limit))
            continue
        if k not in allow:
            errors.append("%s is %d lines, over the %s limit of %d: split it by responsibility"
                          % (k, n, what, limit))
        elif n > allow[k]:
            errors.append("%s grew to %d lines, over its recorded %d in t/size.allow: split it, do not grow it"
                          % (k, n, allow[k]))
        elif n < allow[k]:
            print("size: %s shrank to %d lines: lower its line in t/size.allow" % (k, n), file=sys.stderr)
    for k in allow:
        if k not in sizes:
            errors.append("t/size.allow lists '%s', which is gone: delete that line" % k)
    print("size: %d exceptions still listed in t/size.allow" % len(allow), file=sys.stderr)
    return finish("size", errors)


def main():
    args = sys.argv[1:]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    build = "build"
    if not args:
        sys.exit(__doc__)
    check = args.pop(0)
    while args:
        a = args.pop(0)
        if a == "--root":
            root = args.pop(0)
        elif a == "--build":
            build = args.pop(0)
        elif a == "--list":
            # print what the code has today, in the allow-list format
            if check == "size":
                for k, n in sorted(measure(root).items()):
                    if n > (FUNC_MAX if ":" in k else FILE_MAX):
                        print(k, n)
            elif check == "cycles":
                objs, edges = symbol_graph(root, build)
                print("\n".join(sccs(objs, edges)))
            return 0
    fn = {"links": check_links, "cycles": check_cycles, "size": check_size}.get(check)
    if not fn:
        sys.exit(__doc__)
    return fn(root, build)


if __name__ == "__main__":
    sys.exit(main())
