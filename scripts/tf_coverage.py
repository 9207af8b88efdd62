#!/usr/bin/env python
"""How much of TF1's public API ringflow has, and how much of it is checked against real TensorFlow.

    python scripts/tf_coverage.py              every module of tf.compat.v1, one row each
    python scripts/tf_coverage.py --markdown   the README's "TF1 coverage" table: one row per top-level module
                                               (its submodules counted in), and the tensorflow.python paths

The API list is tests/trainer/conformance/fixtures/tf1_api.json, recorded from real TensorFlow's tf.compat.v1
(tf.raw_ops left out) by scripts/record_tf_oracle.py. A name counts as had when it resolves on the same path under
`trainer` (tf.nn.relu as tg.nn.relu), as checked when a case of the conformance fixture calls it (by this path or
an alias of the same function), and as missing otherwise. tests/trainer/conformance/test_tf_coverage.py checks the
README's table equals --markdown.
"""
import argparse
import importlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import trainer as tg  # noqa: E402
from tests.trainer.conformance import cases, families  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "trainer", "conformance", "fixtures")
# The `tensorflow.python.*` modules TF1 programs import directly: each found in at least 10 files of a public
# corpus of TF1 programs (GitHub code search for `from tensorflow.python.<package> import <module>`).
PYTHON_PATHS = ["client.device_lib", "client.timeline", "framework.dtypes", "framework.graph_util", "framework.ops",
                "ops.array_ops", "ops.control_flow_ops", "ops.init_ops", "ops.math_ops", "ops.nn_ops",
                "ops.rnn_cell_impl", "ops.variable_scope", "platform.gfile", "tools.freeze_graph",
                "training.moving_averages", "training.session_run_hook", "util.nest"]


def tf_api():
    with open(os.path.join(FIXTURES, "tf1_api.json")) as f:
        recorded = json.load(f)
    return recorded["tensorflow"], recorded["modules"]


def ringflow_module(path):
    """tg's module (or namespace object) for "tf.a.b", None where ringflow lacks it."""
    target = tg
    for part in path.split(".")[1:]:
        try:
            target = getattr(target, part)
        except Exception:  # a missing name raises AttributeError (or ringflow's NotInRingflow) with a reason
            return None
    return target


def has(module, name):
    try:
        getattr(module, name)
    except Exception:
        return False
    return True


def checked_objects():
    """The ids of the ringflow functions the conformance cases call (an alias, tf.math.exp for tf.exp, is the same
    function in ringflow as in TF, so it counts as checked too)."""
    return {id(cases.resolve(tg, case["fn"])) for case in families.table().values() if case["kind"] == "call"}


def rows():
    """[(module, names, had, checked, missing)] for every recorded module."""
    checked = checked_objects()
    _, modules = tf_api()
    found = []
    for path, names in modules.items():
        module = ringflow_module(path)
        had = [n for n in names if module is not None and has(module, n)]
        found.append((path, len(names), len(had), sum(id(getattr(module, n)) in checked for n in had),
                      len(names) - len(had)))
    return found


def grouped(found):
    """The rows summed per top-level module (tf.keras holds tf.keras.layers, ...); tf itself stays one row."""
    groups = {}
    for path, *counts in found:
        key = ".".join(path.split(".")[:2])
        groups[key] = [a + b for a, b in zip(groups.get(key, [0, 0, 0, 0]), counts)]
    return [(key, *counts) for key, counts in sorted(groups.items())]


def resolves(path):
    try:
        importlib.import_module("trainer." + path)
    except ImportError:
        return False
    return True


def markdown():
    version, _ = tf_api()
    table = grouped(rows())
    lines = [f"| module (with its submodules) | TF {version} names | ringflow has | checked against TF | missing |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| `{path}` | {names} | {had} | {checked} | {missing} |" for path, names, had, checked, missing in table]
    totals = [sum(row[i] for row in table) for i in range(1, 5)]
    lines.append("| all | " + " | ".join(str(t) for t in totals) + " |")
    lines += ["", "| `tensorflow.python` module | resolves |", "|---|---|"]
    lines += [f"| `tensorflow.python.{path}` | {'yes' if resolves('python.' + path) else 'no'} |"
              for path in PYTHON_PATHS]
    return "\n".join(lines) + "\n"


README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")
BEGIN, END = "<!-- tf_coverage.py --markdown -->\n", "<!-- end -->"


def readme_table(text):
    """The generated table in README's text, None when its markers are missing."""
    start, stop = text.find(BEGIN), text.find(END, text.find(BEGIN))
    return None if start < 0 or stop < 0 else text[start + len(BEGIN):stop]


def write_readme(path=README):
    """Put markdown() between README's markers (after a change that adds or drops a TF name)."""
    with open(path) as f:
        text = f.read()
    old = readme_table(text)
    if old is None:
        raise SystemExit(f"{path} lacks the markers {BEGIN.strip()} ... {END}: put them where the table goes")
    with open(path, "w") as f:
        f.write(text.replace(BEGIN + old + END, BEGIN + markdown() + END, 1))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the README's table")
    parser.add_argument("--readme", action="store_true", help="write the table into README.md between its markers")
    args = parser.parse_args(argv)
    if args.markdown:
        sys.stdout.write(markdown())
        return
    if args.readme:
        write_readme()
        return
    width = max(len(row[0]) for row in rows())
    print(f"{'module':{width}}  {'TF':>5}  {'has':>5}  {'checked':>7}  {'missing':>7}")
    for path, names, had, checked, missing in rows():
        print(f"{path:{width}}  {names:5}  {had:5}  {checked:7}  {missing:7}")


if __name__ == "__main__":
    main()
