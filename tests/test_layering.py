"""The house's floor plan, read from the code's own imports (README, "Layout"): imports only go down the layers,
no import circle, project imports at the top of the file (a handful of documented exceptions), no private name
imported across modules, and a short top floor in trainer/.

Every import is read with `ast`, those inside functions included. Run this file as a script to print the counts.
"""
import ast
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("allreduce", "trainer", "models")

# trainer's floors, bottom up: a module may import from its own floor or a lower one. The first matching prefix
# wins; a module of trainer/ that no prefix names sits on the floor of the TF1 namespaces and packages.
FLOORS = [
    ("trainer/platform/", 0, "platform"),
    ("trainer/framework/", 1, "framework"),
    ("trainer/ops/", 2, "ops"),
    ("trainer/client/", 3, "client"),
    ("trainer/parallel/", 5, "parallel"),
    ("trainer/horovod/", 6, "horovod"),
    ("trainer/__init__.py", 7, "the tg namespace"),
    ("models/", 8, "models"),
    ("trainer/program/", 9, "program"),
    ("trainer/__main__.py", 10, "the entry point"),
    ("trainer/", 4, "TF1 namespaces and packages"),
]
MAX_IMPORTS_IN_FUNCTIONS = 10
MAX_TOP_LEVEL_FILES = 20


def modules():
    """{dotted module name: path} for every module of the three packages."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def floor(path):
    rel = path.relative_to(ROOT).as_posix()
    if rel.startswith("allreduce/"):
        return None
    return next((level, name) for prefix, level, name in FLOORS if rel.startswith(prefix))


class Import:
    """One project import: where it stands, what it names, and whether it sits inside a function."""

    def __init__(self, path, line, target, names, in_function):
        self.path, self.line, self.target, self.names, self.in_function = path, line, target, names, in_function

    def where(self):
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def _package_of(name, path):
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports(name, path, known):
    """Every import of a project module in one file, resolved to the module it loads."""
    tree = ast.parse(path.read_text(), str(path))
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] in PACKAGES:
                        found.append(Import(path, child.lineno, alias.name, [], in_function))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    package = _package_of(name, path).split(".")
                    package = package[:len(package) - child.level + 1]
                    base = ".".join(package + ([child.module] if child.module else []))
                if base.split(".")[0] in PACKAGES:
                    plain = []
                    for alias in child.names:
                        sub = f"{base}.{alias.name}"
                        if sub in known:  # `from package import module`
                            found.append(Import(path, child.lineno, sub, [], in_function))
                        else:
                            plain.append(alias.name)
                    if plain:
                        found.append(Import(path, child.lineno, base, plain, in_function))
            visit(child, inside)

    visit(tree, False)
    return found


def all_imports():
    known = modules()
    return known, [imp for name, path in known.items() for imp in imports(name, path, known)]


def circles(known, found):
    """Strongly connected components of more than one module (Tarjan), each as a sorted list of names."""
    edges = {name: set() for name in known}
    for imp in found:
        source = next(n for n, p in known.items() if p == imp.path)
        if imp.target in known and imp.target != source:
            edges[source].add(imp.target)
    index, low, stack, on_stack, result = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    for v in sorted(edges):
        if v not in index:
            connect(v)
    return result


def upward(known, found):
    """Imports that go up a floor, or from allreduce into trainer or models."""
    bad = []
    for imp in found:
        if imp.target not in known:
            continue
        source, target = floor(imp.path), floor(known[imp.target])
        if source is None:
            if target is not None:
                bad.append(f"{imp.where()}: allreduce imports {imp.target}")
        elif target is not None and target[0] > source[0]:
            bad.append(f"{imp.where()}: {source[1]} imports {imp.target} from {target[1]} above it")
    return bad


def private_imports(found):
    """`from module import _name` across modules (a module's own package __init__ re-exporting is no exception)."""
    return [f"{imp.where()}: {name} from {imp.target}" for imp in found for name in imp.names
            if name.startswith("_") and not name.startswith("__")]


def in_functions(found):
    return [f"{imp.where()}: {imp.target}" for imp in found if imp.in_function]


def top_level_files():
    return sorted(p.name for p in (ROOT / "trainer").glob("*.py"))


@pytest.fixture(scope="module")
def graph():
    return all_imports()


def test_the_reader_sees_the_imports(graph, tmp_path):
    # a reader that resolved nothing would pass every check below
    known, found = graph
    assert "trainer.framework.graph" in known and len(found) > 300
    assert {"trainer.framework.graph", "trainer.client.session"} <= {imp.target for imp in found}
    sample = tmp_path / "sample.py"
    sample.write_text("from .. import nn\n\ndef f():\n    from ..framework.graph import Graph, _secret\n")
    got = imports("trainer.ops.sample", sample, known)
    assert [(i.target, i.names, i.in_function) for i in got] == [
        ("trainer.nn", [], False), ("trainer.framework.graph", ["Graph", "_secret"], True)]


def test_the_floors_cover_every_module(graph):
    known, _ = graph
    assert all(floor(path) is not None for name, path in known.items() if not name.startswith("allreduce"))


def test_imports_only_go_down(graph):
    assert upward(*graph) == []


def test_no_import_circle(graph):
    assert circles(*graph) == []


def test_no_private_name_is_imported_across_modules(graph):
    assert private_imports(graph[1]) == []


def test_project_imports_sit_at_the_top_of_the_file(graph):
    inside = in_functions(graph[1])
    assert len(inside) <= MAX_IMPORTS_IN_FUNCTIONS, "\n".join(inside)


def test_the_top_floor_of_trainer_is_short():
    files = top_level_files()
    assert len(files) <= MAX_TOP_LEVEL_FILES, files


def test_the_checks_catch_what_they_look_for(tmp_path):
    # each check fails on a tree built to break it: an upward import, a circle, a private import
    known = {"trainer.framework.a": ROOT / "trainer" / "framework" / "a.py",
             "trainer.program.b": ROOT / "trainer" / "program" / "b.py"}
    up = Import(known["trainer.framework.a"], 1, "trainer.program.b", ["_secret"], True)
    back = Import(known["trainer.program.b"], 2, "trainer.framework.a", [], False)
    assert upward(known, [up]) and not upward(known, [back])
    assert circles(known, [up, back]) == [sorted(known)]
    assert private_imports([up]) and in_functions([up])


if __name__ == "__main__":
    known, found = all_imports()
    for title, rows in (("imports that go up", upward(known, found)), ("circles", circles(known, found)),
                        ("private names imported", private_imports(found)),
                        ("project imports inside functions", in_functions(found)),
                        ("files at the top of trainer/", top_level_files())):
        print(f"{title}: {len(rows)}")
        for row in rows:
            print(f"  {row}")
