"""GraphDef text and tf.train.write_graph / tf.io.write_graph against what TensorFlow writes for the same small
graphs (tests/trainer/framework/fixtures/tf_graph_text.json, by scripts/record_tf_files.py graph-text)."""
import json
import pathlib
import re

import pytest

import trainer as tg

RECORD = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_graph_text.json").read_text())
GRAPHS = {  # the recorded graphs, built with ringflow
    "scalars": lambda: [tg.constant(10, name="i"), tg.constant(2.5, name="f"), tg.constant(7, tg.int64, name="l"),
                        tg.constant(0.1, tg.float64, name="d"), tg.constant(True, name="b"),
                        tg.constant("hi", name="s"), tg.constant(0.1, name="tenth")],
    "arrays": lambda: [tg.constant([1, 2, 3], name="v"), tg.constant([[1.0, 2.0], [3.0, 4.5]], name="m"),
                       tg.constant([True, False], name="bs"), tg.constant(["a", "bc"], name="ss"),
                       tg.constant([0.5], name="one"), tg.constant([], tg.float32, name="empty")],
    "ops": lambda: [tg.add(tg.constant(1.0, name="x"), tg.placeholder(tg.float32, [None, 3], name="p"), name="sum"),
                    tg.identity(tg.constant([1, 2], name="c"), name="id")],
}
ATTR = r'  attr \{\n(?:   .*\n)*?  \}\n'  # one attr entry of a node: its lines are indented deeper


def graph(key):
    with tg.Graph().as_default() as g:
        GRAPHS[key]()
    return g


def tf_text(text):
    """TF's text less what differs by TF version alone: `versions` (ringflow's graphs leave it unset), TF2's
    AddV2 for TF1's Add, and the attr order of TF 2.15's protobuf, which prints a map by descending key where
    TF 1.15 (and write_graph's text format) go by ascending key."""
    text = re.sub(r'versions \{\n  producer: \d+\n\}\n', "", text).replace('op: "AddV2"', 'op: "Add"')
    by_key = lambda block: re.search(r'key: "(.*)"', block).group(1)  # noqa: E731
    return re.sub(f"(?:{ATTR})+", lambda m: "".join(sorted(re.findall(ATTR, m.group(0)), key=by_key)), text)


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_graph_def_text_is_tfs(key):
    """Const's `dtype` and `value` attrs, int_val for a scalar and tensor_content for an array, as TF chooses."""
    assert str(graph(key).as_graph_def()) == tf_text(RECORD["graphs"][key]["str"])


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_write_graph_writes_tfs_text(key, tmp_path):
    path = tg.train.write_graph(graph(key), str(tmp_path / "new"), "g.pbtxt")
    assert path == str(tmp_path / "new" / "g.pbtxt")
    assert pathlib.Path(path).read_text() == tf_text(RECORD["graphs"][key]["pbtxt"])


@pytest.mark.parametrize("key", ["scalars", "arrays"])
def test_write_graph_writes_tfs_bytes(key, tmp_path):
    path = tg.io.write_graph(graph(key).as_graph_def(), str(tmp_path), "g.pb", as_text=False)
    theirs = bytes.fromhex(RECORD["graphs"][key]["pb"])
    versions = tg.GraphDef(versions=tg.GraphDef.FromString(theirs).versions).SerializeToString()
    assert pathlib.Path(path).read_bytes() + versions == theirs  # TF writes versions last
    assert tg.GraphDef.FromString(theirs).node == graph(key).as_graph_def().node


def test_write_graph_refuses_what_is_no_graph(tmp_path):
    with pytest.raises(TypeError, match=r"takes a Graph or a GraphDef, got list"):
        tg.train.write_graph([], str(tmp_path), "g.pbtxt")
