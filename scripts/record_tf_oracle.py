#!/usr/bin/env python
"""Record real TensorFlow's answers to the conformance table into the fixtures ringflow's tests replay.

Runs only in TensorFlow's own venv, outside the repository (TensorFlow is an oracle, never a ringflow dependency):

    python3 -m venv /work/tfvenv && /work/tfvenv/bin/pip install tensorflow-cpu==2.15.1 tf-keras==2.15.1
    /work/tfvenv/bin/python scripts/record_tf_oracle.py

Every case of the conformance table (tests/trainer/conformance/cases.py and each cases_<family>.py beside it) is
built in `tf.compat.v1` with `disable_v2_behavior()` (TF1's graph mode) and its answer written to that family's
fixture (fixtures/tf_oracle.json for cases.py, fixtures/tf_oracle_<family>.json for the others; `--family NAME`
records only the families named); tf.compat.v1's public API, module by module (tf.raw_ops left out), goes to
fixtures/tf1_api.json for scripts/tf_coverage.py. Every file says which TensorFlow recorded it.
"""
import argparse
import json
import os
import sys
import types

import tensorflow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests.trainer.conformance import cases, families  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "trainer", "conformance", "fixtures")
SKIPPED_MODULES = ("raw_ops", "compat")  # raw_ops is TF's kernels by name; compat loops back to v1 and v2


def api(tf):
    """{module path under tf: sorted public names} for tf.compat.v1 and the modules below it."""
    found, seen = {}, set()

    def visit(module, path):
        if id(module) in seen:
            return
        seen.add(id(module))
        names = sorted(n for n in dir(module) if not n.startswith("_"))
        found[path] = [n for n in names if not (isinstance(getattr(module, n), types.ModuleType)
                                               and getattr(module, n).__name__.startswith("tensorflow._api"))]
        for name in names:
            child = getattr(module, name)
            if (isinstance(child, types.ModuleType) and child.__name__.startswith("tensorflow._api")
                    and name not in SKIPPED_MODULES):
                visit(child, f"{path}.{name}")

    visit(tf, "tf")
    return dict(sorted(found.items()))


def record(tf, family, module, header):
    table = module.cases()
    answers = {}
    for number, (name, case) in enumerate(table.items()):
        answers[name] = cases.probe(tf, case)
        if number % 200 == 0:
            print(f"{family} {number}/{len(table)} {name}: {answers[name]['stage']}", flush=True)
    with open(families.fixture(family), "w") as f:
        json.dump(dict(header, cases=answers), f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    stages = {}
    for answer in answers.values():
        stages[answer["stage"]] = stages.get(answer["stage"], 0) + 1
    print(f"{family}: {len(answers)} cases recorded with TensorFlow {tensorflow.__version__}: {stages}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", action="append", help="record only this family (core is cases.py); repeatable")
    args = parser.parse_args()
    tf = tensorflow.compat.v1
    tf.disable_v2_behavior()
    tf.logging.set_verbosity(tf.logging.ERROR)
    header = {"recorded_by": "scripts/record_tf_oracle.py", "tensorflow": tensorflow.__version__,
              "mode": "tf.compat.v1 with disable_v2_behavior()"}
    os.makedirs(FIXTURES, exist_ok=True)
    every = families.families()
    unknown = sorted(set(args.family or ()) - set(every))
    if unknown:
        parser.error(f"no conformance family {', '.join(unknown)}; there are: {', '.join(every)}")
    for family, module in every.items():
        if args.family is None or family in args.family:
            record(tf, family, module, header)
    with open(os.path.join(FIXTURES, "tf1_api.json"), "w") as f:
        json.dump(dict(header, modules=api(tf)), f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
