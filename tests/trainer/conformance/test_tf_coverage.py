"""README's "TF1 coverage" table is scripts/tf_coverage.py's output, and the script counts what it says it does."""
import os
import re
import sys

from tests.mpirun import ROOT

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import tf_coverage  # noqa: E402

README = (ROOT / "README.md").read_text()


def test_the_readme_table_is_the_scripts_output():
    match = re.search(r"<!-- tf_coverage.py --markdown -->\n(.*?)<!-- end -->", README, re.S)
    assert match, "README's 'TF1 coverage' section lacks the generated table's markers"
    assert match.group(1) == tf_coverage.markdown(), (
        "README's TF1 coverage table is stale: paste `python scripts/tf_coverage.py --markdown` between its markers")


def test_counts_add_up_and_follow_the_fixture():
    rows = {path: counts for path, *counts in tf_coverage.rows()}
    for path, (names, had, checked, missing) in rows.items():
        assert had + missing == names and checked <= had, path
    _, modules = tf_coverage.tf_api()
    assert set(rows) == set(modules) and "tf.raw_ops" not in rows
    names, had, checked, missing = rows["tf.nn"]



def test_tensorflow_python_paths_resolve_where_ringflow_has_the_module():
    assert tf_coverage.resolves("python.client.timeline")
    assert not tf_coverage.resolves("python.no_such_module")
