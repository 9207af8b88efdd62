"""ringflow against real TensorFlow: every case of cases.py replayed and compared with what TF recorded.

The fixtures (fixtures/tf_oracle.json for cases.py, fixtures/tf_oracle_<family>.json for each cases_<family>.py: see
families.py) hold TensorFlow's answers (scripts/record_tf_oracle.py, run in TF's own venv, wrote them and names the
TF version). Each case is compared on its values (tolerance by dtype), dtypes, static
shapes, default names, variables and collections, gradients, or, for bad input, the exception class and whether
it came at construction or at Session.run. ringflow's tg.errors classes match TF's by name; a ringflow class
whose bases include TF's class (InvalidArgumentError is a ValueError) matches too, since `except` would catch it.
Known differences are in xfails.py, each with its reason, strict so a fix shows.
"""
import json
import warnings

import numpy as np
import pytest

import trainer as tg

from . import cases, families, xfails

FIXTURES = {family: json.loads(families.fixture(family).read_text()) for family in families.families()}
RECORDED = dict(next(iter(FIXTURES.values())),
                cases={name: answer for fixture in FIXTURES.values() for name, answer in fixture["cases"].items()})
TABLE = families.table()
TOLERANCE = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-9, atol=1e-12),
             "float16": dict(rtol=1e-3, atol=1e-3), "complex64": dict(rtol=2e-5, atol=2e-6),
             "complex128": dict(rtol=1e-9, atol=1e-12)}


def compare_values(path, tf_value, rf_value):
    if tf_value.get("dtype") != rf_value.get("dtype"):
        return [f"{path}: fetched dtype {rf_value.get('dtype')!r}, TF {tf_value.get('dtype')!r}"]
    if "shape" in tf_value:
        return [] if tf_value["shape"] == rf_value["shape"] else [
            f"{path}: fetched shape {rf_value['shape']}, TF {tf_value['shape']}"]
    want, got = np.asarray(tf_value["value"]), np.asarray(rf_value["value"])
    if want.shape != got.shape:
        return [f"{path}: fetched shape {list(got.shape)}, TF {list(want.shape)}"]
    tolerance = None if tf_value.get("exact") else TOLERANCE.get(tf_value["dtype"])
    same = (np.allclose(got, want, equal_nan=True, **tolerance) if tolerance
            else np.array_equal(got, want))
    return [] if same else [f"{path}: values {got.tolist()!r}, TF {want.tolist()!r}"]


def differences(tf, rf):
    """How ringflow's answer `rf` differs from TensorFlow's `tf`, one line each."""
    if tf["stage"] != "ok" or rf["stage"] != "ok":
        if tf["stage"] != rf["stage"]:
            said = f"{rf.get('error')}: {rf.get('message')}" if rf["stage"] != "ok" else "succeeds"
            told = f"{tf.get('error')} ({tf.get('message')})" if tf["stage"] != "ok" else "succeeds"
            return [f"stage: ringflow {rf['stage']} ({said}), TF {tf['stage']} {told}"]
        if tf["error"] not in rf["classes"]:
            return [f"error at {tf['stage']}: ringflow {rf['error']} ({rf['message']}), TF {tf['error']} "
                    f"({tf['message']})"]
        return []
    if "names" in tf:
        return [] if tf["names"] == rf["names"] else [f"names: ringflow {rf['names']}, TF {tf['names']}"]
    found = []
    for key in ("variables", "collections", "structure", "end", "python"):  # structure, end: a drained tf.data
        # case's; python: a call answering in Python values
        if tf.get(key) != rf.get(key):
            found.append(f"{key}: ringflow {rf.get(key)}, TF {tf.get(key)}")
    if len(tf["outputs"]) != len(rf["outputs"]):
        return found + [f"outputs: ringflow {len(rf['outputs'])}, TF {len(tf['outputs'])}"]
    for i, (want, got) in enumerate(zip(tf["outputs"], rf["outputs"])):
        for key in ("dtype", "shape"):
            if want.get(key) != got.get(key):
                found.append(f"output {i} {key}: ringflow {got.get(key)}, TF {want.get(key)}")
    tf_grads, rf_grads = tf.get("grads", []), rf.get("grads", [])
    if [g is None for g in tf_grads] != [g is None for g in rf_grads]:
        found.append(f"gradients: ringflow {rf_grads}, TF {tf_grads} (None where unconnected)")
    for i, (want, got) in enumerate(zip(tf_grads, rf_grads)):
        if want and got and (want["dtype"], want["shape"]) != (got["dtype"], got["shape"]):
            found.append(f"gradient {i}: ringflow {got['dtype']} {got['shape']}, TF {want['dtype']} {want['shape']}")
    if not found and len(tf["values"]) != len(rf["values"]):  # a drained dataset's elements: one list of all
        found.append(f"values: ringflow fetched {len(rf['values'])}, TF {len(tf['values'])}")
    if not found:
        labels = [f"output {i}" for i in range(len(tf["outputs"]))] + [f"gradient {i}" for i in range(len(tf_grads))]
        runs = len(tf["values"]) // max(1, len(labels))  # a case run several times records each run's values
        labels = [f"{label} (run {run + 1})" if runs > 1 else label for run in range(runs) for label in labels]
        for label, want, got in zip(labels, tf["values"], rf["values"]):
            found += compare_values(label, want, got)
    return found


def replay(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # TF's kernels are as silent on 1/0
        try:
            answer = cases.probe(tg, case)
        except Exception as error:  # noqa: BLE001  (probe records construction; this is a failing replay)
            return cases.failure("replay", error)
    return answer


def params():
    out = []
    for name in sorted(RECORDED["cases"]):
        reason = xfails.reason(name)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("family", sorted(FIXTURES))
def test_the_fixture_says_which_tensorflow_recorded_it(family):
    assert FIXTURES[family]["tensorflow"].startswith("2.15") and "compat.v1" in FIXTURES[family]["mode"]


@pytest.mark.parametrize("family", sorted(FIXTURES))
def test_the_fixture_answers_every_case_of_its_family(family):
    # a case added to a family needs `scripts/record_tf_oracle.py --family <family>` run again in TF's venv
    assert sorted(families.families()[family].cases()) == sorted(FIXTURES[family]["cases"])


def test_every_known_difference_names_a_recorded_case():
    assert [name for name in xfails.listed() if name not in RECORDED["cases"]] == []


@pytest.mark.parametrize("name", params())
def test_ringflow_does_what_tensorflow_does(name):
    found = differences(RECORDED["cases"][name], replay(TABLE[name]))
    assert not found, f"{name} differs from TensorFlow {RECORDED['tensorflow']}:\n  " + "\n  ".join(found)


def test_each_familys_case_names_start_with_the_family():
    for family, module in families.families().items():
        if family != "core":
            assert [name for name in module.cases() if not name.startswith(f"{family}/")] == [], family
