"""The house's floor plan, read from the code's own imports (README, "Layout"): every module of allreduce/, trainer/,
models/ and scripts/ stands on a named floor, imports only go down the floors, no import circle, project imports
at the top of the file, no private name imported across modules, and a short top floor in trainer/.

Every import is read with `ast`, those inside functions included. Run this file as a script to print the floors
(modules and lines of code on each), the imports between each pair of floors, and what breaks a rule.
"""
import ast
import collections
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("allreduce", "trainer", "models")
SCRIPTS = ROOT / "scripts"
# A script's `import bench_models` finds its neighbour (a script runs with scripts/ on sys.path), so the
# scripts' own names are project imports too, as is the suite's tests.mpirun.
PROJECT = PACKAGES + ("tests",) + tuple(sorted(path.stem for path in SCRIPTS.glob("*.py")))

# The floors, bottom up: a module may import from its own floor or a lower one. The first matching prefix wins and
# there is no default: a module that no prefix names fails test_the_floors_cover_every_module. Packages that do not
# import each other share a floor; each row says why it stands where it does.
FLOORS = [
    ("allreduce/", 0, "allreduce"),  # collectives on numpy and mpi4py alone: they know no graph
    ("trainer/platform/", 1, "platform"),  # tf.app, flags, gfile, logging, TF1's errors: nothing of the graph
    ("trainer/framework/", 2, "framework"),  # the graph as data, the op registry, the default graph/session stacks
    ("trainer/ops/", 3, "ops"),  # op families, variables, scopes, gradients: they build graphs, never run them
    ("trainer/client/", 4, "client"),  # Session runs the graphs ops build
    # a table of the TF1 names ringflow lacks: tf.data, tf.contrib, tf.keras and the tg namespace all answer from it
    ("trainer/unsupported.py", 5, "what ringflow lacks"),
    # TF1's packages on the engine alone
    ("trainer/layers/", 6, "tf.layers"),
    ("trainer/losses/", 6, "tf.losses"),
    ("trainer/image/", 6, "tf.image"),
    ("trainer/summary/", 6, "tf.summary"),
    ("trainer/data/", 6, "tf.data"),
    ("trainer/feature_column/", 6, "tf.feature_column"),
    ("trainer/python/", 6, "tensorflow.python"),
    ("trainer/test/", 6, "tf.test"),  # TestCase and the gradient checker on sessions and tg.gradients  # low as in TF1: train's ProfilerHook writes timeline's trace
    ("trainer/rnn/", 7, "RNN cells and RNNs"),  # a cell is a tf.layers Layer
    # the tf.* namespace modules gather names from the floors below: tf.nn holds rnn_cell and dynamic_rnn
    ("trainer/nn.py", 8, "tf.nn"),
    ("trainer/math/", 8, "tf.math"),
    ("trainer/linalg.py", 8, "tf.linalg"),
    ("trainer/random.py", 8, "tf.random"),
    ("trainer/config/", 8, "tf.config"),
    ("trainer/metrics/", 8, "tf.metrics"),
    ("trainer/tf_io.py", 8, "tf.io"),
    ("trainer/queue.py", 8, "tf.queue"),
    ("trainer/python_io.py", 8, "tf.python_io"),
    ("trainer/debugging.py", 8, "tf.debugging"),
    ("trainer/signal.py", 8, "tf.signal"),
    ("trainer/bitwise.py", 8, "tf.bitwise"),
    ("trainer/manip.py", 8, "tf.manip"),
    ("trainer/sparse.py", 8, "tf.sparse"),
    ("trainer/strings.py", 8, "tf.strings"),
    ("trainer/lookup.py", 8, "tf.lookup"),
    ("trainer/sets.py", 8, "tf.sets"),
    ("trainer/distributions/", 8, "tf.distributions"),  # distributions built of ops; samplers from tf.random
    ("trainer/quantization/", 8, "tf.quantization"),  # aliases of ops/quantize_ops.py
    ("trainer/train/", 9, "tf.train"),  # optimizers, Saver, MonitoredSession; its hooks write summaries
    ("trainer/keras/", 10, "tf.keras"),  # compiles and fits on train's optimizers and sessions
    ("trainer/saved_model/", 10, "tf.saved_model"),  # a graph and its variables for serving, on train's Saver
    ("trainer/estimator/", 11, "tf.estimator"),  # on train's MonitoredSession and hooks; TF1's takes Keras models
    ("trainer/contrib/", 12, "tf.contrib"),  # wraps the packages below, as TF1's contrib did
    # what lets TF1 programs run unchanged: aliases, the v1 namespace, the tutorials' helpers
    ("trainer/as_tensorflow/", 13, "as_tensorflow"),  # `import tensorflow` is ringflow; contrib's missing names
    ("trainer/compat/", 13, "tf.compat"),  # tf.compat.v1 looks its names up in the tg namespace when used
    ("trainer/examples/", 13, "tensorflow.examples"),  # the MNIST tutorial's input_data
    ("trainer/parallel/", 14, "parallel"),  # data parallelism and the PS cluster, on tf.train's optimizers and Server
    ("trainer/horovod/", 15, "horovod"),  # Horovod's API on parallel's averaging core
    ("trainer/__init__.py", 16, "the tg namespace"),  # TF1's names gathered from every floor of trainer
    ("models/", 17, "models"),  # builders on the tg namespace, as users write them
    ("trainer/program/", 18, "program"),  # `ringflow train` and `ringflow run` on the public API and the models
    ("trainer/__main__.py", 19, "the entry point"),  # `python -m trainer` is `ringflow`
    ("scripts/", 20, "scripts"),  # launches and benchmarks: they may use anything, nothing uses them
]
MAX_TOP_LEVEL_FILES = 20


def modules():
    """{module name: path} for every module of the three packages (dotted) and every script (as it imports)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    for path in sorted(SCRIPTS.glob("*.py")):
        found[path.stem] = path
    return found


def floor(path):
    """(level, name) of the floor `path` stands on, None where no prefix names it."""
    rel = path.relative_to(ROOT).as_posix()
    return next(((level, name) for prefix, level, name in FLOORS if rel.startswith(prefix)), None)


def unplaced(known):
    """The modules that no floor names."""
    return sorted(name for name, path in known.items() if floor(path) is None)


class Import:
    """One project import: where it stands, what it names, and whether it sits inside a function."""

    def __init__(self, path, line, target, names, in_function):
        self.path, self.line, self.target, self.names, self.in_function = path, line, target, names, in_function

    def where(self):
        path = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{path}:{self.line}"


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
                    if alias.name.split(".")[0] in PROJECT:
                        found.append(Import(path, child.lineno, alias.name, [], in_function))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    package = _package_of(name, path).split(".")
                    package = package[:len(package) - child.level + 1]
                    base = ".".join(package + ([child.module] if child.module else []))
                if base.split(".")[0] in PROJECT:
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
    """Imports that go up a floor (allreduce into trainer or models among them); unplaced() reports the rest."""
    bad = []
    for imp in found:
        if imp.target not in known:
            continue
        source, target = floor(imp.path), floor(known[imp.target])
        if source is not None and target is not None and target[0] > source[0]:
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


def lines_of_code(path):
    """Lines that are neither blank nor a comment."""
    return sum(1 for line in path.read_text().splitlines() if line.strip() and not line.lstrip().startswith("#"))


def census(known, found):
    """{floor: (modules, lines of code)}, bottom up, and {(importing floor, imported floor): imports} for every pair
    of different floors; modules on no floor count under (None, "no floor")."""
    def place(path):
        return floor(path) or (None, "no floor")

    order = {(level, name): i for i, (_, level, name) in enumerate(FLOORS)}
    sizes = collections.defaultdict(lambda: (0, 0))
    for path in known.values():
        count, lines = sizes[place(path)]
        sizes[place(path)] = (count + 1, lines + lines_of_code(path))
    pairs = collections.Counter((place(imp.path), place(known[imp.target])) for imp in found if imp.target in known)
    return ({key: sizes[key] for key in sorted(sizes, key=lambda key: order.get(key, -1))},
            {pair: pairs[pair] for pair in sorted(pairs, key=lambda pair: (order.get(pair[0], -1),
                                                                            -order.get(pair[1], -1)))
             if pair[0] != pair[1]})


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
    assert unplaced(graph[0]) == []


def test_imports_only_go_down(graph):
    assert upward(*graph) == []


def test_no_import_circle(graph):
    assert circles(*graph) == []


def test_no_private_name_is_imported_across_modules(graph):
    assert private_imports(graph[1]) == []


def test_project_imports_sit_at_the_top_of_the_file(graph):
    assert in_functions(graph[1]) == []


def test_the_top_floor_of_trainer_is_short():
    files = top_level_files()
    assert len(files) <= MAX_TOP_LEVEL_FILES, files


def test_the_checks_catch_what_they_look_for(tmp_path):
    # each check fails on a tree built to break it: an upward import, a circle, a private import, a module on no
    # floor, a script that imports the project (or its neighbour) inside a function
    known = {"trainer.framework.a": ROOT / "trainer" / "framework" / "a.py",
             "trainer.program.b": ROOT / "trainer" / "program" / "b.py",
             "allreduce.c": ROOT / "allreduce" / "c.py"}
    up = Import(known["trainer.framework.a"], 1, "trainer.program.b", ["_secret"], True)
    back = Import(known["trainer.program.b"], 2, "trainer.framework.a", [], False)
    out_of_allreduce = Import(known["allreduce.c"], 3, "trainer.framework.a", [], False)
    assert upward(known, [up]) and upward(known, [out_of_allreduce]) and not upward(known, [back])
    assert circles(known, [up, back]) == [sorted(known)[1:]]
    assert private_imports([up]) and in_functions([up])
    assert unplaced(dict(known, **{"trainer.newcomer": ROOT / "trainer" / "newcomer.py"})) == ["trainer.newcomer"]
    assert unplaced(known) == []
    script = tmp_path / "script.py"
    script.write_text("import numpy\nimport trainer as tg\n\n\ndef main():\n    import numpy\n"
                      "    import bench_models\n    from trainer.parallel import ps\n")
    inside = in_functions(imports("script", script, modules()))
    assert [row.rpartition(": ")[2] for row in inside] == ["bench_models", "trainer.parallel.ps"]


if __name__ == "__main__":
    known, found = all_imports()
    sizes, pairs = census(known, found)
    print("floors, bottom up: modules, lines of code")
    for (level, name), (count, lines) in sizes.items():
        print(f"  {level!s:>2} {name:24} {count:4d} {lines:6d}")
    print(f"imports between floors: {sum(pairs.values())}")
    for ((_, source), (_, target)), count in pairs.items():
        print(f"  {source:>24} -> {target:24} {count:4d}")
    for title, rows in (("imports that go up", upward(known, found)), ("circles", circles(known, found)),
                        ("private names imported", private_imports(found)),
                        ("project imports inside functions", in_functions(found)),
                        ("files at the top of trainer/", top_level_files())):
        print(f"{title}: {len(rows)}")
        for row in rows:
            print(f"  {row}")
