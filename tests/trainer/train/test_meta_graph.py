"""MetaGraphDef export and import: `.meta` files, the "save in one process, import_meta_graph + restore and keep
training in another" pattern, collections, and the graphs real TensorFlow wrote."""
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import trainer as tg
from trainer.framework.meta_graph import MetaGraphDef

ROOT = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "tf_files"  # recorded by scripts/record_tf_files.py

TRAIN = """
import sys
import numpy as np
import trainer as tg
x_data = np.random.RandomState(0).rand(16, 3).astype(np.float32)
y_data = x_data @ np.array([[1.0], [-2.0], [0.5]], np.float32)
directory, steps = sys.argv[1], int(sys.argv[2])
"""
SAVE = TRAIN + """
tg.set_random_seed(1)
x = tg.placeholder(tg.float32, [None, 3], name="x")
y = tg.placeholder(tg.float32, [None, 1], name="y")
hidden = tg.layers.dense(x, 4, activation=tg.nn.relu)
loss = tg.reduce_mean(tg.square(tg.layers.dense(hidden, 1) - y), name="loss")
step = tg.train.get_or_create_global_step()
train_op = tg.train.AdamOptimizer(0.05).minimize(loss, global_step=step, name="train_op")
tg.add_to_collection("train_op", train_op)
saver = tg.train.Saver()
with tg.Session() as sess:
    sess.run(tg.global_variables_initializer())
    for _ in range(steps):
        sess.run(train_op, {x: x_data, y: y_data})
    saver.save(sess, directory + "/model.ckpt", global_step=step)
    print(" ".join(repr(float(sess.run([train_op, loss], {x: x_data, y: y_data})[1])) for _ in range(steps)))
"""
RESUME = TRAIN + """
saver = tg.train.import_meta_graph(tg.train.latest_checkpoint(directory) + ".meta")
train_op = tg.get_collection("train_op")[0]
with tg.Session() as sess:
    saver.restore(sess, tg.train.latest_checkpoint(directory))
    assert sess.run(tg.train.get_global_step()) == steps
    print(" ".join(repr(float(sess.run([train_op, "loss:0"], {"x:0": x_data, "y:0": y_data})[1]))
                   for _ in range(steps)))
"""


def _python(code, *args):
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_save_in_one_process_import_and_keep_training_in_another(tmp_path):
    """The second process has none of the model's code: it fetches 'loss:0' and 'train_op' by name, and its
    losses are bitwise those the first process went on to compute."""
    went_on = _python(SAVE, tmp_path, 4)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "model.ckpt-4.data-00000-of-00001", "model.ckpt-4.index",
                                            "model.ckpt-4.meta"]
    assert _python(RESUME, tmp_path, 4) == went_on


def test_collections_variables_and_import_scope_round_trip(tmp_path):
    with tg.Graph().as_default():
        w = tg.Variable(np.ones((2, 2), np.float32), name="w")
        tg.Variable(3, name="counter", trainable=False)
        out = tg.reduce_sum(tg.matmul(w, w), name="out")
        tg.add_to_collection("outputs", out)
        tg.add_to_collection("numbers", 7)
        tg.add_to_collection("names", "first")
        meta = tg.train.export_meta_graph(str(tmp_path / "g.meta"))
    assert isinstance(meta, MetaGraphDef) and meta.meta_info_def.tensorflow_version == "1.15.0"
    assert meta.collection_def["outputs"].node_list.value == ["out:0"]
    with tg.Graph().as_default() as graph:
        tg.train.import_meta_graph(str(tmp_path / "g.meta"), import_scope="imported")
        assert [v.name for v in tg.trainable_variables()] == ["imported/w:0"]
        assert [v.name for v in tg.global_variables()] == ["imported/w:0", "imported/counter:0"]
        assert tg.get_collection("numbers") == [7] and tg.get_collection("names") == [b"first"]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            assert sess.run(tg.get_collection("outputs")[0]) == 8.0
        assert graph.get_tensor_by_name("imported/out:0") is tg.get_collection("outputs")[0]
    text = tmp_path / "g.pbtxt"
    tg.train.export_meta_graph(str(text), as_text=True, graph=graph)
    assert 'op: "VariableV2"' in text.read_text()


def test_graphs_with_sub_graphs_in_their_attrs_refuse_to_import_by_op_type(tmp_path):
    """What export cannot write as TF1's nodes (the gradient of a loop with a cond in its body) is marked, and
    import names it."""
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [], name="x")
        step = (lambda i, y: (i + 1, tg.cond(i > 0, lambda: y * x, lambda: y + x)))
        tg.gradients(tg.while_loop(lambda i, y: i < 3, step, [tg.constant(0), x])[1], x)
        tg.train.export_meta_graph(str(tmp_path / "loop.meta"))
    with tg.Graph().as_default(), pytest.raises(NotImplementedError, match=r"cannot rebuild the op types "
                                                                           r"\[.*'WhileGrad'\].*WhileGrad \(bodies"):
        tg.train.import_meta_graph(str(tmp_path / "loop.meta"))


def test_a_name_clash_and_a_foreign_file_are_named(tmp_path):
    with tg.Graph().as_default():
        tg.Variable(1.0, name="v")
        tg.train.export_meta_graph(str(tmp_path / "v.meta"))
        with pytest.raises(ValueError, match="already has an op named 'v/"):
            tg.train.import_meta_graph(str(tmp_path / "v.meta"))
    (tmp_path / "junk.meta").write_bytes(b"\xff\xff\xff")
    with tg.Graph().as_default(), pytest.raises(ValueError, match="junk.meta.*not a binary MetaGraphDef"):
        tg.train.import_meta_graph(str(tmp_path / "junk.meta"))


def test_imports_the_graph_real_tensorflow_wrote_and_restores_its_checkpoint():
    record = json.loads((FIXTURES / "values.json").read_text())
    with tg.Graph().as_default():
        saver = tg.train.import_meta_graph(str(FIXTURES / "model.ckpt-5.meta"))
        with tg.Session() as sess:
            saver.restore(sess, tg.train.latest_checkpoint(str(FIXTURES)))
            got = sess.run("y:0", {"x:0": np.asarray(record["input"], np.float32)})
            np.testing.assert_array_equal(got, np.asarray(record["output"], np.float32))
            assert sess.run("global_step:0") == 5
        assert [v.op.name for v in tg.trainable_variables()] == ["dense/kernel", "dense/bias"]
        assert tg.get_default_graph().get_tensor_by_name("x:0").shape.as_list() == [None, 2]  # TF's -1: unknown


def test_each_saves_meta_graph_is_the_graph_as_it_is_then(tmp_path):
    """Saves of an unchanged graph write the same bytes as a fresh export; new ops, collection items and
    refined static shapes all reach the next save's .meta."""
    graph = tg.Graph()
    with graph.as_default():
        x = tg.placeholder(tg.float32, None, name="x")
        w = tg.get_variable("w", [2], tg.float32)
        saver = tg.train.Saver()
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())

            def save(step):
                prefix = saver.save(sess, str(tmp_path / "m"), global_step=step)
                data = pathlib.Path(prefix + ".meta").read_bytes()
                assert data == saver.export_meta_graph(graph=graph).SerializeToString()
                return MetaGraphDef.FromString(data)

            first, again = save(1), save(2)
            assert first == again
            tg.identity(w * 2.0, name="doubled")
            assert "doubled" in {n.name for n in save(3).graph_def.node}
            tg.add_to_collection("mine", w)
            assert "mine" in save(4).collection_def
            x.set_shape([None, 2])
            (node,) = [n for n in save(5).graph_def.node if n.name == "x"]
            assert [d.size for d in node.attr["_output_shapes"].list.shape[0].dim] == [-1, 2]
