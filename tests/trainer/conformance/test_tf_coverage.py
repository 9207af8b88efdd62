"""README's "TF1 coverage" table is scripts/tf_coverage.py's output, and the script counts what it says it does."""
import os
import sys

from tests.mpirun import ROOT

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import tf_coverage  # noqa: E402

README = (ROOT / "README.md").read_text()


def test_the_readme_table_is_the_scripts_output():
    table = tf_coverage.readme_table(README)
    assert table is not None, "README's 'TF1 coverage' section lacks the generated table's markers"
    assert table == tf_coverage.markdown(), (
        "README's TF1 coverage table is stale: run `python scripts/tf_coverage.py --readme` to write it")


def test_the_readme_writer_replaces_only_the_table(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{tf_coverage.BEGIN}| stale |\n{tf_coverage.END}\nafter\n")
    tf_coverage.write_readme(str(readme))
    assert readme.read_text() == f"before\n{tf_coverage.BEGIN}{tf_coverage.markdown()}{tf_coverage.END}\nafter\n"


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
