"""The conformance table in families: cases.py's own table ("core") and one more per `cases_<family>.py` beside it.

Each family is recorded into a fixture of its own (fixtures/tf_oracle.json for core, fixtures/tf_oracle_<family>.json
for the others), so a family can be added or re-recorded without touching the others' answers. A family module
builds its cases with cases.py's helpers (`call`, `t`, `p`, `fn`, ...) and exposes `cases()` -> {name: case}; its
case names start with the family's name so that no two families share one.
"""
import importlib
import pathlib

from . import cases

HERE = pathlib.Path(__file__).parent


def families():
    """{family name: its module}, core first, then the cases_*.py modules in name order."""
    found = {"core": cases}
    for path in sorted(HERE.glob("cases_*.py")):
        found[path.stem[len("cases_"):]] = importlib.import_module(f"{__package__}.{path.stem}")
    return found


def fixture(family):
    return HERE / "fixtures" / ("tf_oracle.json" if family == "core" else f"tf_oracle_{family}.json")


def table(names=None):
    """Every family's cases in one {name: case} (only the families in `names` when given)."""
    merged = {}
    for family, module in families().items():
        if names is not None and family not in names:
            continue
        for name, case in module.cases().items():
            if name in merged:
                raise ValueError(f"conformance case {name!r} is defined by two families (the second: {family})")
            merged[name] = case
    return merged
