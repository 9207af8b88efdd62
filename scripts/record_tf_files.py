"""TensorFlow's own files, both ways, with real TensorFlow (run only in a venv that has it, never in CI):

    /work/tfvenv/bin/python scripts/record_tf_files.py record tests/trainer/train/fixtures/tf_files
        writes, with tf.compat.v1 in graph mode, a Saver checkpoint (model.ckpt-5.index, .data-00000-of-00001,
        .meta, `checkpoint`), a SavedModel (saved_model/) and values.json, the numbers ringflow's tests compare
        with (tests/trainer/train/test_tf_files.py);
    /work/tfvenv/bin/python scripts/record_tf_files.py check DIR
        loads the files scripts/ringflow_tf_files.py wrote into DIR with TensorFlow (the checkpoint through
        tf.train.load_checkpoint, through import_meta_graph + Saver.restore and through the SaverDef's ops run by
        name, the SavedModels of simple_save and of a DNNClassifier's export_saved_model, for raw features and for
        serialized tf.Examples, through tf.compat.v1.saved_model.loader.load; a CNN's training graph through
        import_meta_graph + restore, trained 3 more steps; a graph with tf.cond, dropout and batch norm on a `training`
        placeholder, its Switch/Merge nodes run and trained on; while loops (a counter, maximum_iterations,
        dynamic_rnn, map_fn, a loop in a loop, a cond in a loop) through import_meta_graph and a SavedModel,
        training graphs whose gradients run back through a loop trained 3 steps, and TF's own loop graphs
        exported again by ringflow), compares them with DIR/expected.json, prints a verdict.
    /work/tfvenv/bin/python scripts/record_tf_files.py tf-graphs tests/trainer/train/fixtures/tf_graphs
        writes a SavedModel whose graph holds ops in TF's own form (Const inputs where ringflow has attrs: Sum's
        reduction_indices, Reshape's shape, ConcatV2's axis, ...; Cast's SrcT/DstT; ParseExampleV2 of dense,
        variable-length and sequence features) and values.json, the outputs ringflow must compute from it.
    /work/tfvenv/bin/python scripts/record_tf_files.py train-graphs tests/trainer/train/fixtures/tf_graphs
        writes two training graphs TF builds (a CNN with Adam, an MLP of resource variables with momentum) saved
        after 3 steps, and the losses of 3 more (train_values.json): import_meta_graph + restore trains on alike.
    /work/tfvenv/bin/python scripts/record_tf_files.py cond-graphs tests/trainer/train/fixtures/tf_graphs
        writes training graphs with TF1's tf.cond (Switch/Merge: dropout and batch normalization on a `training`
        placeholder; nested conds) saved after 3 steps, and the losses of 5 more fed training=True/False
        (cond_values.json).
    /work/tfvenv/bin/python scripts/record_tf_files.py loop-graphs tests/trainer/train/fixtures/tf_graphs
        writes graphs with TF1's while loops (Enter/Exit/NextIteration/LoopCond frames, TensorArrays), frozen to
        GraphDefs of constants (loops/<kind>.pb): a counter loop, dynamic_rnn over unknown lengths, map_fn, nested
        loops with a cond inside a loop and a loop inside a cond; and a training graph whose gradient runs a
        backward loop over stacks (loops/train.meta); loop_values.json holds the feeds, TF's outputs and, for
        dynamic_rnn and map_fn, TF's gradient of sum(output²) by the input.
    /work/tfvenv/bin/python scripts/record_tf_files.py check-models DIR
        trains on, in TensorFlow, the training graphs scripts/ringflow_tf_models.py wrote into DIR (import_meta_graph
        + restore, then its steps: the benchmark models, a Keras GRU, an LSTMCell's dynamic_rnn, `ringflow train`'s
        own .meta with its readiness report run before and after the restore) and compares the losses with ringflow's;
        for the first training steps scripts/ringflow_tf_corpus.py exported from tests/tf1_corpus, runs each step's
        fetches with its feeds and compares their means.
    /work/tfvenv/bin/python scripts/record_tf_files.py adam64 tests/trainer/train/fixtures/tf_adam64
        writes a float64 dense layer trained 2 steps by Adam with Python float hyper-parameters, saved (its powers
        are float32 variables), and values.json: the saved variables' dtypes and values and the layer one step on.
    /work/tfvenv/bin/python scripts/record_tf_files.py op-defs tests/trainer/train/fixtures
        writes tf_op_defs.json, TensorFlow's op definitions (inputs and attrs), against which
        tests/trainer/train/test_tf_op_defs.py checks the nodes of ringflow's exports as TensorFlow's import does.
"""
import json
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import op_def_pb2
from tensorflow.python.client import pywrap_tf_session

v1 = tf.compat.v1
# small values of each dtype a checkpoint commonly holds, fixed so that the fixture never changes between runs
VALUES = {"dense/kernel": np.arange(6, dtype=np.float32).reshape(2, 3) / 4 - 0.5,
          "dense/bias": np.array([0.25, -1.5, 3.0], dtype=np.float32),
          "counts": np.array([[1, -2], [3, 4]], dtype=np.int32), "big": np.array([1.0 / 3, 2e-300], dtype=np.float64),
          "flags": np.array([True, False, True]), "global_step": np.int64(5)}
INPUT = np.array([[1.0, 2.0], [-1.0, 0.5]], dtype=np.float32)


def record(directory):
    os.makedirs(directory, exist_ok=True)
    graph = tf.Graph()
    with graph.as_default():
        variables = {}
        for name, value in VALUES.items():
            variables[name] = v1.get_variable(name, initializer=tf.constant(value),
                                              trainable=name.startswith("dense"))
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        y = tf.add(tf.matmul(x, variables["dense/kernel"]), variables["dense/bias"], name="y")
        saver = v1.train.Saver()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            saver.save(sess, os.path.join(directory, "model.ckpt"), global_step=5)
            predicted = sess.run(y, {x: INPUT})
            v1.saved_model.simple_save(sess, os.path.join(directory, "saved_model"), {"x": x}, {"y": y})
    record = {"tensorflow": tf.__version__, "values": {k: np.asarray(v).tolist() for k, v in VALUES.items()},
              "dtypes": {k: np.asarray(v).dtype.name for k, v in VALUES.items()},
              "input": INPUT.tolist(), "output": predicted.tolist()}
    with open(os.path.join(directory, "values.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"recorded with TensorFlow {tf.__version__} into {directory}")


def sharded(directory):
    """Variables on two devices, saved by a sharded Saver: one data file per device, one merged index, and the
    graph with TF's sharded save ops (ShardedFilename, MergeV2Checkpoints) in the .meta."""
    os.makedirs(directory, exist_ok=True)
    values = {"a/w": np.arange(6, dtype=np.float32).reshape(3, 2) - 2.5, "a/count": np.int64(3),
              "b/w": np.array([[0.5, -0.25]], dtype=np.float64), "b/flags": np.array([True, False])}
    with tf.Graph().as_default():
        for name, value in values.items():
            with tf.device("/cpu:0" if name.startswith("a/") else "/cpu:1"):
                v1.get_variable(name, initializer=tf.constant(value))
        saver = v1.train.Saver(sharded=True)
        with v1.Session(config=v1.ConfigProto(device_count={"CPU": 2})) as sess:
            sess.run(v1.global_variables_initializer())
            saver.save(sess, os.path.join(directory, "model.ckpt"), global_step=3)  # with TF's sharded Saver graph
    record = {"tensorflow": tf.__version__, "values": {k: np.asarray(v).tolist() for k, v in values.items()},
              "dtypes": {k: np.asarray(v).dtype.name for k, v in values.items()},
              "files": sorted(os.listdir(directory))}
    with open(os.path.join(directory, "values.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"recorded with TensorFlow {tf.__version__} into {directory}: {record['files']}")


GRAPHS = {  # small graphs whose nodes ringflow builds alike: TF's text of each, keyed by what it shows
    "scalars": lambda: [tf.constant(10, name="i"), tf.constant(2.5, name="f"), tf.constant(7, tf.int64, name="l"),
                        tf.constant(0.1, tf.float64, name="d"), tf.constant(True, name="b"),
                        tf.constant("hi", name="s"), tf.constant(0.1, name="tenth")],
    "arrays": lambda: [tf.constant([1, 2, 3], name="v"), tf.constant([[1.0, 2.0], [3.0, 4.5]], name="m"),
                       tf.constant([True, False], name="bs"), tf.constant(["a", "bc"], name="ss"),
                       tf.constant([0.5], name="one"), tf.constant([], tf.float32, name="empty")],
    "ops": lambda: [tf.add(tf.constant(1.0, name="x"), v1.placeholder(tf.float32, [None, 3], name="p"), name="sum"),
                    tf.identity(tf.constant([1, 2], name="c"), name="id")],
}


def graph_text(path):
    """{graph: {"str": str(as_graph_def()), "pbtxt": write_graph's text, "pb": its binary file, hex}}."""
    import tempfile
    record = {"tensorflow": tf.__version__, "graphs": {}}
    for key, build in GRAPHS.items():
        with tf.Graph().as_default() as graph:
            build()
            with tempfile.TemporaryDirectory() as tmp:
                tf.io.write_graph(graph, tmp, "g.pbtxt")
                v1.train.write_graph(graph.as_graph_def(), tmp, "g.pb", as_text=False)
                with open(os.path.join(tmp, "g.pbtxt")) as f, open(os.path.join(tmp, "g.pb"), "rb") as b:
                    record["graphs"][key] = {"str": str(graph.as_graph_def()), "pbtxt": f.read(),
                                             "pb": b.read().hex()}
    with open(path, "w") as f:
        json.dump(record, f, indent=1)
    print(f"recorded with TensorFlow {tf.__version__} into {path}")


def tf_graphs(directory):
    """A SavedModel of a graph TF builds in its own op forms, fed serialized tf.Examples; values.json holds the
    examples (hex) and the outputs TF computed from them."""
    import shutil
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)

    def example(x, ids=None, seq=None):
        feature = {"x": tf.train.Feature(float_list=tf.train.FloatList(value=x))}
        if ids:
            feature["ids"] = tf.train.Feature(int64_list=tf.train.Int64List(value=ids))
        if seq:
            feature["seq"] = tf.train.Feature(float_list=tf.train.FloatList(value=seq))
        return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()
    batch = [example([1, 2], [3, 4], [0.5]), example([0, 1]), example([2, -2], [1], [1, 2, 3])]
    with tf.Graph().as_default():
        serialized = v1.placeholder(tf.string, [None], name="examples")
        parsed = v1.parse_example(serialized, {
            "x": v1.FixedLenFeature([2], tf.float32), "ids": v1.VarLenFeature(tf.int64),
            "seq": v1.FixedLenSequenceFeature([], tf.float32, allow_missing=True, default_value=-1.0),
            "b": v1.FixedLenFeature([], tf.int64, default_value=7)})
        w = v1.get_variable("w", initializer=tf.constant([[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]]))
        ids = tf.cast(v1.sparse_tensor_to_dense(parsed["ids"]), tf.float32)
        h = tf.matmul(parsed["x"], w)
        joined = tf.concat([h, tf.reduce_sum(ids, 1, keepdims=True), tf.reduce_mean(parsed["seq"], axis=[1])[:, None],
                            tf.cast(tf.expand_dims(parsed["b"], 1), tf.float32)], axis=1, name="joined")
        outputs = {"joined": joined, "flat": tf.reshape(tf.transpose(joined, [1, 0]), [-1], name="flat"),
                   "best": tf.argmax(joined, axis=1, name="best"),
                   "picked": tf.gather(joined, [2, 0], axis=1, name="picked"),
                   "tiled": tf.tile(tf.squeeze(joined[:, :1], axis=[1]), [2], name="tiled"),
                   "peak": tf.reduce_max(joined, name="peak"), "dense_ids": ids}
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = sess.run(outputs, {serialized: batch})
            v1.saved_model.simple_save(sess, os.path.join(directory, "saved_model"), {"examples": serialized},
                                       outputs)
    record = {"tensorflow": tf.__version__, "examples": [e.hex() for e in batch],
              "outputs": {k: np.asarray(v).tolist() for k, v in values.items()}}
    with open(os.path.join(directory, "values.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"recorded with TensorFlow {tf.__version__} into {directory}")


TRAIN_X = np.random.RandomState(0).randn(8, 12, 12, 2).astype(np.float32)
TRAIN_Y = np.array([0, 2, 1, 1, 0, 2, 2, 1])


def train_graphs(directory):
    """Training graphs TF builds, saved after 3 steps (checkpoint and .meta): a CNN of reference variables with
    Adam (conv, pooling, slicing, concat, tanh and their TF gradient ops) and an MLP of resource variables with
    momentum (ReadVariableOp, ResourceApply*, ResourceGather); values.json gets the losses of 3 more steps, which
    import_meta_graph + restore must reproduce. GATE_GRAPH: every gradient is computed before any update, so the
    recorded steps do not depend on TF's scheduling."""
    record = {}
    for kind in ("cnn", "resource_mlp"):
        with tf.Graph().as_default():
            v1.set_random_seed(1)
            x = v1.placeholder(tf.float32, [None, 12, 12, 2], name="x")
            y = v1.placeholder(tf.int64, [None], name="y")
            if kind == "cnn":
                h = v1.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
                h = v1.layers.max_pooling2d(h, 2, 2)
                h = v1.layers.conv2d(h, 4, 3, activation=tf.nn.sigmoid)
                h = v1.layers.flatten(v1.layers.average_pooling2d(h, 2, 2))
                h = tf.concat([h[:, :3], tf.reshape(h[:, 3:], [-1, 13])], 1)
                logits = v1.layers.dense(v1.layers.dense(h, 8, activation=tf.nn.tanh), 3)
                optimizer = v1.train.AdamOptimizer(0.01)
            else:
                flat = tf.reshape(x, [-1, 288])
                w = v1.get_variable("w", [288, 3], use_resource=True,
                                    initializer=v1.truncated_normal_initializer(stddev=0.05))
                table = v1.get_variable("table", [3, 3], use_resource=True, trainable=False,
                                        initializer=v1.constant_initializer(0.1))
                logits = tf.matmul(flat, w) + tf.nn.embedding_lookup(table, y)
                optimizer = v1.train.MomentumOptimizer(0.05, 0.9)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), name="loss")
            step = v1.train.get_or_create_global_step()
            train = optimizer.minimize(loss, global_step=step, name="train", gate_gradients=v1.train.Optimizer.GATE_GRAPH)
            feed = {x: TRAIN_X, y: TRAIN_Y}
            with v1.Session() as sess:
                sess.run(v1.global_variables_initializer())
                for _ in range(3):
                    sess.run(train, feed)
                prefix = v1.train.Saver().save(sess, os.path.join(directory, kind, "model.ckpt"), global_step=step)
                record[kind] = {"prefix": os.path.relpath(prefix, directory),
                                "losses": [float(sess.run([train, loss], feed)[1]) for _ in range(3)]}
    record.update(tensorflow=tf.__version__, x=TRAIN_X.tolist(), y=TRAIN_Y.tolist())
    with open(os.path.join(directory, "train_values.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"recorded with TensorFlow {tf.__version__} into {directory}")


ADAM64_X = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
ADAM64_Y = np.array([[0.5, -1.0], [0.25, 0.0], [1.5, -0.5], [-1.0, 2.0]])


def adam64(directory):
    """A float64 dense layer trained 2 steps by AdamOptimizer(0.05) with Python float hyper-parameters, saved (its
    beta1_power/beta2_power are float32 variables, the m/v slots float64); values.json gets every saved variable's
    dtype and value and the layer after one more step, which restoring and stepping must reproduce."""
    with tf.Graph().as_default():
        w = v1.get_variable("dense/kernel", initializer=tf.constant(np.arange(6.0).reshape(3, 2) / 7 - 0.3))
        b = v1.get_variable("dense/bias", initializer=tf.constant(np.array([0.1, -0.2])))
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(ADAM64_X), w) + b - ADAM64_Y))
        step = v1.train.get_or_create_global_step()
        train = v1.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(2):
                sess.run(train)
            v1.train.Saver().save(sess, os.path.join(directory, "model.ckpt"), global_step=step,
                                  write_meta_graph=False)
            saved = {v.op.name: (v.dtype.base_dtype.name, sess.run(v).tolist()) for v in v1.global_variables()}
            sess.run(train)
            after = {v.op.name: sess.run(v).tolist() for v in (w, b)}
    record = {"tensorflow": tf.__version__, "x": ADAM64_X.tolist(), "y": ADAM64_Y.tolist(),
              "dtypes": {k: d for k, (d, _) in saved.items()}, "saved": {k: v for k, (_, v) in saved.items()},
              "after": after}
    with open(os.path.join(directory, "values.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"recorded with TensorFlow {tf.__version__} into {directory}")


COND_X = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4)
COND_STEPS = (True, False, True, True, False)  # the `training` fed at each step


def cond_graphs(directory):
    """Training graphs whose tf.conds TF1 writes as Switch/Merge nodes, trained 3 steps and saved: dropout and fused
    batch normalization on a `training` placeholder (their gradients and moving-average updates conds too), and
    nested tf.conds of two outputs each, trained with Adam; then the losses of COND_STEPS' steps from a fresh
    session, as an importer's session starts (the dropout's random stream starts again), into cond_values.json.
    Fixed shapes keep TF's gradients to ops ringflow reads (Tile, not BroadcastTo)."""
    record = {"tensorflow": tf.__version__, "x": COND_X.tolist(), "training": list(COND_STEPS)}
    for kind in ("dropout_batch_norm", "nested"):
        with tf.Graph().as_default():
            v1.set_random_seed(1)
            x = v1.placeholder(tf.float32, [6, 4], name="x")
            training = v1.placeholder_with_default(False, [], name="training")
            if kind == "nested":
                h = v1.layers.dense(x, 3, activation=tf.nn.tanh)
                a, b = v1.cond(training, lambda: (h * 2.0 + 1.0, tf.nn.relu(h)), lambda: v1.cond(
                    tf.reduce_sum(h) > 0.0, lambda: (h - 1.0, h * h), lambda: (3.0 * h, h + 1.0)))
                loss = tf.reduce_mean(tf.square(a * b - 0.5), name="loss")
                optimizer = v1.train.AdamOptimizer(0.05)
            else:
                h = v1.layers.dropout(v1.layers.dense(x, 3), 0.25, training=training)
                h = v1.layers.batch_normalization(tf.reshape(h, [6, 1, 1, 3]), training=training, fused=True)
                loss = tf.reduce_mean(tf.square(tf.reshape(h, [6, 3]) - 0.5), name="loss")
                optimizer = v1.train.GradientDescentOptimizer(0.1)
            with tf.control_dependencies(v1.get_collection(v1.GraphKeys.UPDATE_OPS)):
                train = optimizer.minimize(loss, name="train", gate_gradients=v1.train.Optimizer.GATE_GRAPH)
            saver = v1.train.Saver()
            with v1.Session() as sess:
                sess.run(v1.global_variables_initializer())
                for _ in range(3):
                    sess.run(train, {x: COND_X, training: True})
                prefix = saver.save(sess, os.path.join(directory, kind, "model.ckpt"))
            with v1.Session() as sess:
                saver.restore(sess, prefix)
                losses = [float(sess.run([loss, train], {x: COND_X, training: t})[0]) for t in COND_STEPS]
        record[kind] = {"prefix": os.path.relpath(prefix, directory), "losses": losses}
    with open(os.path.join(directory, "cond_values.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"recorded with TensorFlow {tf.__version__} into {directory}")


LOOP_X = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
LOOP_SEQ = np.linspace(-1.0, 1.0, 2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)


def _loop_graph(kind):
    """(feeds {placeholder: value}, fetches {name: tensor}) of one loop graph, built in the default graph."""
    n = v1.placeholder(tf.int32, [], name="n")
    x = v1.placeholder(tf.float32, [None, 3], name="x")
    feeds = {n: 3, x: LOOP_X}
    if kind == "counter":
        i, s = v1.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + tf.cast(i, tf.float32) * x[0]),
                             [tf.constant(0), tf.zeros([3])])
        return feeds, {"i": tf.identity(i, name="i"), "s": tf.identity(s, name="s"),
                       "limited": tf.identity(v1.while_loop(lambda v: v < 100.0, lambda v: [v * 2.0 + 1.0],
                                                            [tf.constant(1.0)], maximum_iterations=n,
                                                            return_same_structure=True)[0], name="limited")}
    if kind == "dynamic_rnn":
        seq = v1.placeholder(tf.float32, [None, None, 3], name="seq")
        lengths = v1.placeholder(tf.int32, [None], name="lengths")
        cell = v1.nn.rnn_cell.GRUCell(4, kernel_initializer=v1.glorot_uniform_initializer(seed=1))
        outputs, state = v1.nn.dynamic_rnn(cell, seq, sequence_length=lengths, dtype=tf.float32)
        return {seq: LOOP_SEQ, lengths: [5, 3]}, {"outputs": tf.identity(outputs, name="outputs"),
                                                  "state": tf.identity(state, name="state")}
    if kind == "map_fn":
        pairs = tf.map_fn(lambda r: (tf.reduce_sum(r * r) + r[0], tf.cast(r[1] > 0.0, tf.int32)), x,
                          dtype=(tf.float32, tf.int32))
        return feeds, {"mapped": tf.identity(pairs[0], name="mapped"), "signs": tf.identity(pairs[1], name="signs")}

    def inner(i, total):  # a loop in a loop, and a cond in the loop: sum over j < i of (j + 1) * x[j % 4]
        def step(j, acc):
            row = x[tf.math.floormod(j, 4)]
            return j + 1, acc + tf.cond(tf.equal(tf.math.floormod(j, 2), 0), lambda: row, lambda: -row * 0.5)
        return i + 1, v1.while_loop(lambda j, acc: j < i, step, [tf.constant(0), total])[1]
    nested = v1.while_loop(lambda i, t: i < n, inner, [tf.constant(0), tf.zeros([3])])[1]
    flag = v1.placeholder_with_default(True, [], name="flag")
    in_cond = tf.cond(flag, lambda: v1.while_loop(lambda v: tf.reduce_sum(v) < 50.0, lambda v: [v * 3.0],
                                                  [x[1] + 2.0], return_same_structure=True)[0], lambda: x[2])
    return feeds, {"nested": tf.identity(nested, name="nested"), "in_cond": tf.identity(in_cond, name="in_cond")}


def loop_graphs(directory):
    """Graphs with TF1's while loops, frozen (variables as Consts) into loops/<kind>.pb, TF's outputs for their
    feeds into loop_values.json; and two training graphs (a while_loop, a dynamic_rnn) whose gradients are TF's
    backward loops over stacks, saved before training (loops/<kind>.meta and checkpoint) with the losses of 3 steps."""
    os.makedirs(os.path.join(directory, "loops"), exist_ok=True)
    record = {"tensorflow": tf.__version__}
    for kind in ("counter", "dynamic_rnn", "map_fn", "nested"):
        with tf.Graph().as_default() as graph:
            feeds, fetches = _loop_graph(kind)
            differentiated = {"dynamic_rnn": ("outputs", "seq:0"), "map_fn": ("mapped", "x:0")}.get(kind)
            with v1.Session() as sess:
                sess.run(v1.global_variables_initializer())
                values = sess.run(fetches, feeds)
                if differentiated:  # d sum(output²) / d input, through TF's backward loop and TensorArray gradients
                    output, source = differentiated
                    loss = tf.reduce_sum(tf.square(fetches[output]))
                    gradient = sess.run(tf.gradients(loss, graph.get_tensor_by_name(source))[0], feeds)
                frozen = v1.graph_util.convert_variables_to_constants(sess, graph.as_graph_def(),
                                                                      [t.op.name for t in fetches.values()])
        with open(os.path.join(directory, "loops", f"{kind}.pb"), "wb") as f:
            f.write(frozen.SerializeToString())
        record[kind] = {"feeds": {t.name: np.asarray(v).tolist() for t, v in feeds.items()},
                        "outputs": {k: np.asarray(v).tolist() for k, v in values.items()}}
        if differentiated:
            record[kind]["gradient"] = {"of": differentiated[0], "by": differentiated[1], "value": gradient.tolist()}
    for kind in ("train", "train_rnn"):
        with tf.Graph().as_default():
            if kind == "train":
                x = v1.placeholder(tf.float32, [3], name="x")
                w = v1.get_variable("w", initializer=tf.constant([0.5, -0.25, 1.0]))
                y = v1.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * w + x), [tf.constant(0), x])[1]
                feeds = {x: [1.0, -2.0, 0.5]}
            else:
                x = v1.placeholder(tf.float32, [None, None, 2], name="x")
                cell = v1.nn.rnn_cell.BasicRNNCell(2, activation=tf.tanh)
                y = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)[0]
                feeds = {x: LOOP_SEQ[:, :3, :2]}
            loss = tf.reduce_sum(tf.square(y - 0.25), name="loss")
            v1.train.GradientDescentOptimizer(0.05).minimize(loss, name="train")
            with v1.Session() as sess:
                sess.run(v1.global_variables_initializer())
                prefix = v1.train.Saver().save(sess, os.path.join(directory, "loops", kind), write_meta_graph=False,
                                               write_state=False)
                meta = v1.train.export_meta_graph()
                meta.meta_info_def.ClearField("stripped_op_list")  # TF's op definitions and loop contexts, which
                del meta.collection_def["while_context"]  # ringflow does not read: half of a small graph's file
                with open(prefix + ".meta", "wb") as f:
                    f.write(meta.SerializeToString())
                losses = [float(sess.run([loss, "train"], feeds)[0]) for _ in range(3)]
        record[kind] = {"prefix": os.path.relpath(prefix, directory), "losses": losses,
                        "feeds": {t.name: np.asarray(v).tolist() for t, v in feeds.items()}}
    with open(os.path.join(directory, "loop_values.json"), "w") as f:
        json.dump(record, f, indent=1)
    print(f"recorded with TensorFlow {tf.__version__} into {directory}")


def check(directory):
    """Compare what TensorFlow reads from ringflow's files with DIR/expected.json; returns the failures."""
    with open(os.path.join(directory, "expected.json")) as f:
        expected = json.load(f)
    failures = []

    def same(what, got, want):
        ok = np.array_equal(np.asarray(got), np.asarray(want))
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            failures.append(f"{what}: got {np.asarray(got)!r}, want {np.asarray(want)!r}")

    prefix = tf.train.latest_checkpoint(directory)
    same("tf.train.latest_checkpoint finds ringflow's checkpoint", os.path.basename(prefix or ""),
         expected["checkpoint"])
    reader = tf.train.load_checkpoint(prefix)
    for name, value in expected["values"].items():
        same(f"load_checkpoint: {name}", reader.get_tensor(name), np.asarray(value, expected["dtypes"][name]))
    with tf.Graph().as_default(), v1.Session() as sess:
        saver = v1.train.import_meta_graph(prefix + ".meta")
        saver.restore(sess, prefix)
        same("import_meta_graph + restore: y:0", sess.run("y:0", {"x:0": expected["input"]}), expected["output"])
    with tf.Graph().as_default(), v1.Session() as sess:  # ringflow's SaverDef: its ops, run by name
        meta = v1.train.import_meta_graph(prefix + ".meta", clear_devices=True).saver_def
        same("the SaverDef names TF1's ops", [meta.filename_tensor_name, meta.save_tensor_name,
                                              meta.restore_op_name],
             ["save/Const:0", "save/control_dependency:0", "save/restore_all"])
        sess.run(meta.restore_op_name, {meta.filename_tensor_name: prefix})
        same("sess.run(restore_op_name, {filename: prefix}): y:0", sess.run("y:0", {"x:0": expected["input"]}),
             expected["output"])
        resaved = os.path.join(directory, "tf_resaved")
        sess.run(meta.save_tensor_name, {meta.filename_tensor_name: resaved})
        saver = v1.train.Saver(saver_def=meta)
        saver.restore(sess, resaved)
        for name, value in expected["values"].items():
            same(f"sess.run(save_tensor_name) then tf.train.Saver(saver_def).restore: {name}",
                 tf.train.load_checkpoint(resaved).get_tensor(name), np.asarray(value, expected["dtypes"][name]))
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["serve"], os.path.join(directory, "saved_model"))
        signature = meta.signature_def["serving_default"]
        out = sess.run(signature.outputs["y"].name, {signature.inputs["x"].name: expected["input"]})
        same("saved_model.loader.load: serving_default y", out, expected["output"])
    with tf.Graph().as_default(), v1.Session() as sess:  # Estimator.export_saved_model of a DNNClassifier
        meta = v1.saved_model.loader.load(sess, ["serve"], os.path.join(directory, expected["estimator_export"]))
        same("DNNClassifier export: its signatures", sorted(meta.signature_def), ["predict"])
        signature = meta.signature_def["predict"]
        out = sess.run(signature.outputs["probabilities"].name, {signature.inputs["x"].name: expected["input"]})
        close = np.allclose(out, expected["probabilities"], rtol=1e-5, atol=1e-6)
        same("DNNClassifier export: predict probabilities (to 1e-5)", close, True)
        classes = sess.run(signature.outputs["all_classes"].name, {signature.inputs["x"].name: expected["input"]})
        same("DNNClassifier export: predict all_classes", classes, [[b"0", b"1", b"2"]] * 2)
    with tf.Graph().as_default(), v1.Session() as sess:  # the same, exported for serialized tf.Examples
        meta = v1.saved_model.loader.load(sess, ["serve"], os.path.join(directory, expected["parsing_export"]))
        same("DNNClassifier parsing export: its signatures", sorted(meta.signature_def),
             ["classification", "predict", "serving_default"])
        examples = [bytes.fromhex(e) for e in expected["examples"]]
        for key, inputs, output in (("classification", "inputs", "scores"), ("predict", "examples", "probabilities")):
            signature = meta.signature_def[key]
            out = sess.run(signature.outputs[output].name, {signature.inputs[inputs].name: examples})
            same(f"DNNClassifier parsing export: {key} {output} of serialized Examples (to 1e-5)",
                 np.allclose(out, expected["probabilities"], rtol=1e-5, atol=1e-6), True)
    train = expected["train"]  # a CNN ringflow trained: TF imports its .meta, restores and trains on alike
    with tf.Graph().as_default(), v1.Session() as sess:
        prefix = os.path.join(directory, train["prefix"])
        v1.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
        feed = {"x:0": np.asarray(train["x"], np.float32), "y:0": np.asarray(train["y"])}
        losses = [sess.run(["train", "loss:0"], feed)[1] for _ in range(3)]
        same("CNN training graph: import_meta_graph + restore, 3 more steps' losses (to 2e-6)",
             np.allclose(losses, train["losses"], rtol=2e-6), True)
    cond = expected.get("cond")  # ringflow's tf.cond as Switch/Merge: TF runs the branch fed, trains on alike
    if cond is not None:
        with tf.Graph().as_default(), v1.Session() as sess:
            prefix = os.path.join(directory, cond["prefix"])
            v1.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
            x = np.asarray(cond["x"], np.float32)
            losses = [sess.run(["loss:0", "train"], {"x:0": x, "training:0": t})[0] for t in cond["training"]]
            same("tf.cond, dropout and batch norm on a training placeholder: import_meta_graph + restore, the "
                 "losses of steps fed training=True/False (to 2e-6)", np.allclose(losses, cond["losses"], rtol=2e-6),
                 True)
            if not np.allclose(losses, cond["losses"], rtol=2e-6):
                print(f"     TensorFlow's losses {losses}, ringflow's {cond['losses']}")
        trip = cond["round_trip"]  # graphs TF wrote with tf.cond, imported and saved again by ringflow
        for kind in ("dropout_batch_norm", "nested"):
            with tf.Graph().as_default(), v1.Session() as sess:
                prefix = os.path.join(directory, trip[kind]["prefix"])
                v1.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
                x = np.asarray(trip["x"], np.float32)
                losses = [sess.run(["loss:0", "train"], {"x:0": x, "training:0": t})[0] for t in trip["training"]]
                same(f"TF's tf.cond graph ({kind}) imported and saved by ringflow: TF trains on to ringflow's losses "
                     "(to 2e-6)", np.allclose(losses, trip[kind]["losses"], rtol=2e-6), True)
    loops = expected.get("loops")  # ringflow's while loops as TF1 frames: TF runs them to ringflow's outputs
    if loops is not None:
        def close(what, got, want):
            same(f"{what} (to 1e-5)", np.allclose(got, want, rtol=1e-5, atol=1e-6), True)
        with tf.Graph().as_default(), v1.Session() as sess:
            prefix = os.path.join(directory, loops["prefix"])
            v1.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
            for key, want in loops["outputs"].items():
                close(f"while loops (counter, maximum_iterations, dynamic_rnn, map_fn, nested, cond in a loop): "
                      f"import_meta_graph + restore: {key}", sess.run(f"{key}:0", loops["feeds"]), want)
        with tf.Graph().as_default(), v1.Session() as sess:
            signature = v1.saved_model.loader.load(sess, ["serve"], os.path.join(directory, loops["saved_model"]))
            signature = signature.signature_def["serving_default"]
            feeds = {signature.inputs[k.partition(":")[0]].name: v for k, v in loops["feeds"].items()}
            for key, want in loops["outputs"].items():
                close(f"while loops: saved_model.loader.load: {key}", sess.run(signature.outputs[key].name, feeds),
                      want)
        for kind, train in loops["training"].items():  # ringflow's loop gradients as TF's backward loops over stacks
            with tf.Graph().as_default(), v1.Session() as sess:
                prefix = os.path.join(directory, train["prefix"])
                v1.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
                losses = [sess.run(["loss:0", "train"], {"x:0": train["x"]})[0] for _ in range(3)]
                close(f"training through a {kind} (its gradient a backward loop over stacks): import_meta_graph + "
                      "restore, 3 steps' losses", losses, train["losses"])
        for kind, trip in loops["round_trip"].items():  # loop graphs TF wrote, imported and exported by ringflow
            if "losses" in trip:  # a training graph: ringflow wrote its loop's gradient again as a backward loop
                with tf.Graph().as_default(), v1.Session() as sess:
                    prefix = os.path.join(directory, trip["prefix"])
                    v1.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
                    losses = [sess.run(["loss:0", "train"], trip["feeds"])[0] for _ in range(3)]
                    close(f"TF's {kind} graph restored and saved by ringflow: 3 more steps' losses", losses,
                          trip["losses"])
                continue
            with tf.Graph().as_default(), v1.Session() as sess:
                v1.train.import_meta_graph(os.path.join(directory, trip["meta"]))
                names = {op.name for op in sess.graph.get_operations()}
                feeds = {k: v for k, v in trip["feeds"].items() if k.partition(":")[0] in names}
                for key, want in trip["outputs"].items():
                    close(f"TF's {kind} loop graph imported and exported by ringflow: {key}",
                          sess.run(f"{key}:0", feeds), want)
    verdict = "PASS" if not failures else f"FAIL ({len(failures)})"
    print(f"verdict: {verdict}: TensorFlow {tf.__version__} read ringflow's files in {directory}")
    return failures


def op_defs(directory):
    """DIR/tf_op_defs.json: each of TensorFlow's op definitions as its NodeDefs are checked on import (its inputs,
    each one tensor, a list of the length attr `number_attr` or of the types of `type_list_attr`; its attrs, with
    or without a default), for tests/trainer/train/test_tf_op_defs.py."""
    ops = op_def_pb2.OpList.FromString(bytes(pywrap_tf_session.TF_GetBuffer(pywrap_tf_session.TF_GetAllOpList())))
    defs = {op.name: {"inputs": [[a.number_attr, a.type_list_attr] for a in op.input_arg],
                      "attrs": {a.name: a.HasField("default_value") for a in op.attr}}
            for op in ops.op if not op.name.startswith("_")}
    with open(os.path.join(directory, "tf_op_defs.json"), "w") as f:
        json.dump({"tensorflow": tf.__version__, "ops": defs}, f, separators=(",", ":"), sort_keys=True)


def check_models(directory):
    """Train on each graph of DIR/models.json in TensorFlow; returns the failures."""
    with open(os.path.join(directory, "models.json")) as f:
        record = json.load(f)
    failures = []
    for name, model in record["models"].items():
        prefix = os.path.join(directory, model["prefix"])
        feeds = {k: np.asarray(v["value"], v["dtype"]) for k, v in model.get("feeds", {}).items()}
        try:
            with tf.Graph().as_default(), v1.Session() as sess:
                # devices cleared: a program's tf.device("/gpu:0") runs on the CPU here, as with soft placement
                saver = v1.train.import_meta_graph(prefix + ".meta", clear_devices=True)
                if model.get("import_only"):  # a .meta a corpus program wrote: TensorFlow imports it
                    print(f"ok   {name}: import_meta_graph")
                    continue
                ready = [sorted(n.decode() for n in sess.run(op)) for op in v1.get_collection("ready_op")]
                saver.restore(sess, prefix)
                ready += [sorted(n.decode() for n in sess.run(op)) for op in v1.get_collection("ready_op")]
                if "fetches" in model:  # one step's fetches (ringflow_tf_corpus.py): their means
                    losses = [float(np.mean(v)) for v in sess.run(model["fetches"], feeds)]
                else:
                    losses = [sess.run([model["loss"], model["train"]], feeds)[0] for _ in model["losses"]]
        except Exception as exc:  # noqa: BLE001 - a model TensorFlow cannot take is reported, the others go on
            print(f"FAIL {name}: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}")
            failures.append(name)
            continue
        if model.get("unseeded"):  # its draws differ from run to run, in TensorFlow too: it ran
            print(f"ok   {name}: import_meta_graph + restore, a step (unseeded {', '.join(model['unseeded'])}: "
                  "its numbers differ from run to run)")
            continue
        want = model.get("numbers", model.get("losses"))
        worst = float(np.max(np.abs(np.subtract(losses, want)) / np.maximum(np.abs(want), 1), initial=0))
        ok = worst <= model["tolerance"] and ready in ([], [model.get("ready_op"), []])
        print(f"{'ok  ' if ok else 'FAIL'} {name}: import_meta_graph + restore, {len(losses)} more steps' losses "
              f"(relative difference {worst:.1e})" + (f", ready_op {ready}" if ready else ""))
        if not ok:
            print(f"     TensorFlow's {[float(v) for v in losses]}, ringflow's {want}")
            failures.append(name)
    for name, why in record.get("left", {}).items():
        print(f"--   {name}: {why}")
    print(f"verdict: {'PASS' if not failures else f'FAIL ({len(failures)})'}: TensorFlow {tf.__version__} trained "
          f"on ringflow's graphs in {directory}")
    return failures


if __name__ == "__main__":
    commands = {"record": record, "sharded": sharded, "graph-text": graph_text, "tf-graphs": tf_graphs,
                "train-graphs": train_graphs, "cond-graphs": cond_graphs,
                "loop-graphs": loop_graphs, "op-defs": op_defs, "adam64": adam64}
    if len(sys.argv) != 3 or sys.argv[1] not in (*commands, "check", "check-models"):
        sys.exit(__doc__)
    v1.disable_v2_behavior()  # TF1's graph: reference variables (VariableV2), as a TF 1.15 program writes them
    if sys.argv[1] in ("check", "check-models"):
        sys.exit(1 if (check if sys.argv[1] == "check" else check_models)(sys.argv[2]) else 0)
    commands[sys.argv[1]](sys.argv[2])
