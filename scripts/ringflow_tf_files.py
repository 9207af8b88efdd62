"""Write TensorFlow's files with ringflow, for `scripts/record_tf_files.py check DIR` to read with real TensorFlow:

    python scripts/ringflow_tf_files.py DIR

DIR gets a tg.train.Saver checkpoint (model.ckpt-5.index, .data-00000-of-00001, .meta, `checkpoint`), a
SavedModel (saved_model/, by tg.saved_model.simple_save), a DNNClassifier's export_saved_model for raw features
(estimator/<time>/) and for serialized tf.Examples (estimator_parsing/<time>/), a CNN's training checkpoint and
.meta (cnn/), a training graph with tf.cond, dropout and batch normalization on a `training` placeholder (cond/), the
graphs with tf.cond TensorFlow wrote (tests' fixtures) imported and saved again (tf_round_trip/), while loops (a
counter, maximum_iterations, dynamic_rnn and bidirectional_dynamic_rnn over unknown lengths, map_fn, a loop in a
loop, a cond in a loop) saved with Saver.save and simple_save (loops/), the loop graphs TensorFlow wrote (tests'
fixtures) imported and exported again (tf_round_trip_loops/), training graphs whose gradients run back through a
loop (loop_training/), and expected.json: the variables' values, y = x @ W + b
for a fixed x, the classifier's predictions and the loops' outputs, which TensorFlow must read back.
"""
import json
import os
import sys

import numpy as np

import trainer as tg

VALUES = {"dense/kernel": np.arange(6, dtype=np.float32).reshape(2, 3) / 8 + 0.125,
          "dense/bias": np.array([-0.5, 1.0, 2.5], dtype=np.float32),
          "counts": np.array([[7, -1], [0, 9]], dtype=np.int32), "big": np.array([2.0 / 3, -1e300], dtype=np.float64),
          "flags": np.array([False, True]), "global_step": np.array(5, dtype=np.int64)}
INPUT = np.array([[0.5, -2.0], [3.0, 1.0]], dtype=np.float32)


def write(directory):
    os.makedirs(directory, exist_ok=True)
    with tg.Graph().as_default():
        variables = {name: tg.Variable(value, name=name, trainable=name.startswith("dense"))
                     for name, value in VALUES.items()}
        x = tg.placeholder(tg.float32, [None, 2], name="x")
        y = tg.add(tg.matmul(x, variables["dense/kernel"]), variables["dense/bias"], name="y")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            prefix = tg.train.Saver().save(sess, os.path.join(directory, "model.ckpt"), global_step=5)
            output = sess.run(y, {x: INPUT})
            tg.saved_model.simple_save(sess, os.path.join(directory, "saved_model"), {"x": x}, {"y": y})
    export_dir, parsing_dir, probabilities = export_classifier(directory)
    train = train_cnn(directory)
    cond = train_cond(directory)
    cond["round_trip"] = resave_tf_conds(directory)
    loops = write_loops(directory)
    loops["round_trip"] = resave_tf_loops(directory)
    loops["training"] = train_loops(directory)
    expected = {"ringflow": tg.__version__, "checkpoint": os.path.basename(prefix),
                "estimator_export": os.path.relpath(export_dir, directory), "probabilities": probabilities,
                "parsing_export": os.path.relpath(parsing_dir, directory),
                "examples": [e.hex() for e in examples(INPUT)], "train": train, "cond": cond, "loops": loops,
                "values": {k: np.asarray(v).tolist() for k, v in VALUES.items()},
                "dtypes": {k: np.asarray(v).dtype.name for k, v in VALUES.items()},
                "input": INPUT.tolist(), "output": output.tolist()}
    with open(os.path.join(directory, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
    print(f"wrote {prefix} and {os.path.join(directory, 'saved_model')}")


def train_cnn(directory):
    """A CNN trained 3 steps with Adam (GATE_GRAPH: TensorFlow runs the graph's ops in parallel, and every gradient
    must be computed before any update), saved with its .meta; the losses of 3 more steps, which TensorFlow must
    reproduce after import_meta_graph + restore."""
    rng = np.random.RandomState(0)
    x_value, y_value = rng.randn(8, 12, 12, 2).astype(np.float32), rng.randint(0, 3, 8)
    with tg.Graph().as_default():
        tg.set_random_seed(1)
        x = tg.placeholder(tg.float32, [None, 12, 12, 2], name="x")
        y = tg.placeholder(tg.int64, [None], name="y")
        h = tg.layers.conv2d(x, 4, 3, padding="same", activation=tg.nn.relu)
        h = tg.layers.max_pooling2d(h, 2, 2)
        h = tg.layers.conv2d(h, 4, 3, activation=tg.nn.sigmoid)
        h = tg.layers.flatten(tg.layers.average_pooling2d(h, 2, 2))
        h = tg.concat([h[:, :3], tg.reshape(h[:, 3:], [-1, 13])], 1)
        logits = tg.layers.dense(tg.layers.dense(h, 8, activation=tg.nn.tanh), 3)
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), name="loss")
        step = tg.train.get_or_create_global_step()
        train = tg.train.AdamOptimizer(0.01).minimize(loss, global_step=step, name="train",
                                                      gate_gradients=tg.train.Optimizer.GATE_GRAPH)
        feed = {x: x_value, y: y_value}
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for _ in range(3):
                sess.run(train, feed)
            prefix = tg.train.Saver().save(sess, os.path.join(directory, "cnn", "model.ckpt"), global_step=step)
            losses = [float(sess.run([train, loss], feed)[1]) for _ in range(3)]
    return {"prefix": os.path.relpath(prefix, directory), "x": x_value.tolist(), "y": y_value.tolist(),
            "losses": losses}


COND_STEPS = (True, False, True, True, False)  # the `training` fed at each step


def train_cond(directory):
    """A model with a tf.cond on a `training` placeholder (a nested cond in its false branch), dropout (a number
    rate, and a Tensor one) and batch normalization on the same placeholder, trained 3 steps and saved; the losses
    of COND_STEPS' steps from a fresh session (the dropouts' random streams start again, as in TensorFlow's), which
    TensorFlow must reproduce after import_meta_graph + restore: its Switch/Merge nodes run only the branch the
    placeholder picks."""
    x_value = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4)
    with tg.Graph().as_default():
        tg.set_random_seed(2)
        x = tg.placeholder(tg.float32, [None, 4], name="x")
        training = tg.placeholder_with_default(False, [], name="training")
        h = tg.layers.dense(x, 3)
        h = tg.layers.dropout(tg.layers.batch_normalization(h, training=training), 0.25, training=training)
        h = tg.nn.dropout(h, rate=tg.constant(0.125) * tg.cast(training, tg.float32))

        def evaluating():
            return tg.cond(tg.reduce_sum(h) > 0.0, lambda: h - 1.0, lambda: tg.constant(3.0) * h, name="inner")
        h = tg.cond(training, lambda: h * 2.0 + tg.constant(1.0), evaluating, name="outer")
        loss = tg.reduce_mean(tg.square(h), name="loss")
        with tg.control_dependencies(tg.get_collection(tg.GraphKeys.UPDATE_OPS)):
            tg.train.GradientDescentOptimizer(0.1).minimize(loss, name="train",
                                                            gate_gradients=tg.train.Optimizer.GATE_GRAPH)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for _ in range(3):
                sess.run("train", {x: x_value, training: True})
            prefix = tg.train.Saver().save(sess, os.path.join(directory, "cond", "model.ckpt"))
        with tg.Session() as sess:
            tg.train.Saver().restore(sess, prefix)
            losses = [float(sess.run([loss, "train"], {x: x_value, training: t})[0]) for t in COND_STEPS]
    return {"prefix": os.path.relpath(prefix, directory), "x": x_value.tolist(), "training": list(COND_STEPS),
            "losses": losses}


TF_GRAPHS = os.path.join(os.path.dirname(__file__), "..", "tests", "trainer", "train", "fixtures", "tf_graphs")


def resave_tf_conds(directory):
    """The graphs with TF1's tf.cond that TensorFlow wrote (record_tf_files.py cond-graphs), imported, restored and
    saved again by ringflow (tf_round_trip/<kind>/), with the losses of the steps TensorFlow recorded, which
    TensorFlow must reproduce from ringflow's files."""
    with open(os.path.join(TF_GRAPHS, "cond_values.json")) as f:
        record = json.load(f)
    x, result = np.asarray(record["x"], np.float32), {"x": record["x"], "training": record["training"]}
    for kind in ("dropout_batch_norm", "nested"):
        prefix = os.path.join(TF_GRAPHS, record[kind]["prefix"])
        os.makedirs(os.path.join(directory, "tf_round_trip", kind), exist_ok=True)
        with tg.Graph().as_default(), tg.Session() as sess:
            tg.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
            saved = tg.train.Saver().save(sess, os.path.join(directory, "tf_round_trip", kind, "model.ckpt"))
            losses = [float(sess.run(["loss:0", "train"], {"x:0": x, "training:0": t})[0]) for t in record["training"]]
        result[kind] = {"prefix": os.path.relpath(saved, directory), "losses": losses}
    return result


LOOP_FEEDS = {"n:0": 3, "x:0": np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3),
              "seq:0": np.linspace(-1, 1, 30, dtype=np.float32).reshape(2, 5, 3), "lengths:0": [5, 3]}


def loop_graph(conds=True):
    """In the default graph: the placeholders n, x, seq and lengths (LOOP_FEEDS), and {name: tensor} of a counter
    loop, one with maximum_iterations, dynamic_rnn over unknown lengths, map_fn and a loop in a loop; with `conds`
    also loops holding conds and a bidirectional_dynamic_rnn (tests/trainer/train/test_loop_nodes.py checks the
    first set in ringflow, write_loops hands all of them to TensorFlow)."""
    n = tg.placeholder(tg.int32, [], name="n")
    x = tg.placeholder(tg.float32, [None, 3], name="x")
    seq = tg.placeholder(tg.float32, [None, None, 3], name="seq")
    lengths = tg.placeholder(tg.int32, [None], name="lengths")
    i, s = tg.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + tg.cast(i, tg.float32) * x[0]),
                         [tg.constant(0), tg.zeros([3])])
    limited = tg.while_loop(lambda v: v < 100.0, lambda v: v * 2.0 + 1.0, [tg.constant(1.0)], maximum_iterations=n)
    cell = tg.nn.rnn_cell.GRUCell(4, kernel_initializer=tg.glorot_uniform_initializer(seed=1))
    outputs, state = tg.nn.dynamic_rnn(cell, seq, sequence_length=lengths, dtype=tg.float32)
    mapped = tg.map_fn(lambda r: tg.reduce_sum(r * r) + r[0], x)

    def outer(i, total):
        step = (lambda j, acc: (j + 1, acc + tg.cast(j + 1, tg.float32) * x[1]))
        return i + 1, tg.while_loop(lambda j, acc: j < i, step, [tg.constant(0), total])[1]
    nested = tg.while_loop(lambda i, t: i < n, outer, [tg.constant(0), tg.zeros([3])])[1]
    placeholders = {"n": n, "x": x, "seq": seq, "lengths": lengths}
    named = {"i": i, "s": s, "limited": limited, "outputs": outputs, "state": state, "mapped": mapped, "nested": nested}
    if not conds:
        return placeholders, named

    def picking(i, total):  # a cond in the loop
        row = tg.gather(x, tg.math.floormod(i, 4))
        return i + 1, total + tg.cond(tg.equal(tg.math.floormod(i, 2), 1), lambda: row * 2.0, lambda: 1.0 - row)
    picked = tg.while_loop(lambda i, t: i < n + 2, picking, [tg.constant(0), tg.zeros([3])])[1]
    paired = tg.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, *tg.cond(
        i > 1, lambda: (a + x[0], b * 2.0), lambda: (a - 1.0, b + x[1]))), [tg.constant(0), tg.zeros([3]),
                                                                            tg.ones([3])])
    with tg.variable_scope("both"):
        cells = [tg.nn.rnn_cell.GRUCell(2, kernel_initializer=tg.glorot_uniform_initializer(seed=k)) for k in (2, 3)]
        (forward, backward), _ = tg.nn.bidirectional_dynamic_rnn(*cells, seq, sequence_length=lengths,
                                                                 dtype=tg.float32)
    named.update({"picked": picked, "paired_a": paired[1], "paired_b": paired[2], "forward": forward,
                  "backward": backward})
    return placeholders, named


def write_loops(directory):
    """ringflow's while loops (loop_graph), saved by Saver.save (loops/model.ckpt) and simple_save
    (loops/saved_model) with their outputs for fixed feeds, which TensorFlow must compute from both files."""
    feeds = LOOP_FEEDS
    with tg.Graph().as_default():
        placeholders, named = loop_graph()
        fetches = {key: tg.identity(t, name=key) for key, t in named.items()}
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            values = sess.run(fetches, feeds)
            prefix = tg.train.Saver().save(sess, os.path.join(directory, "loops", "model.ckpt"))
            tg.saved_model.simple_save(sess, os.path.join(directory, "loops", "saved_model"), placeholders, fetches)
    return {"prefix": os.path.relpath(prefix, directory), "saved_model": os.path.join("loops", "saved_model"),
            "feeds": {k: np.asarray(v).tolist() for k, v in feeds.items()},
            "outputs": {k: np.asarray(v).tolist() for k, v in values.items()}}


def train_loops(directory):
    """Training graphs whose gradients run back through a loop (a while_loop, a dynamic_rnn, a map_fn), saved before
    training (loop_training/<kind>), with the losses of 3 steps, which TensorFlow must reproduce: ringflow writes
    each loop's gradient as TF's backward loop over stacks."""
    rng, result = np.random.RandomState(0), {}
    for kind in ("while_loop", "dynamic_rnn", "map_fn"):
        with tg.Graph().as_default():
            if kind == "while_loop":
                x = tg.placeholder(tg.float32, [3], name="x")
                w = tg.Variable([0.5, -0.25, 1.0], name="w")
                y = tg.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * w + x), [tg.constant(0), x])[1]
                feed = [1.0, -2.0, 0.5]
            elif kind == "dynamic_rnn":
                x = tg.placeholder(tg.float32, [None, None, 2], name="x")
                with tg.variable_scope("rnn", initializer=tg.glorot_uniform_initializer(seed=1)):
                    y = tg.nn.dynamic_rnn(tg.nn.rnn_cell.GRUCell(3), x, dtype=tg.float32)[0]
                feed = rng.randn(2, 4, 2).astype(np.float32)
            else:
                x = tg.placeholder(tg.float32, [None, 3], name="x")
                w = tg.Variable([[0.5], [-0.25], [1.0]], name="w")
                y = tg.map_fn(lambda r: tg.tanh(tg.matmul(r[None], w))[0], x)
                feed = rng.randn(4, 3).astype(np.float32)
            loss = tg.reduce_sum(tg.square(y - 0.25), name="loss")
            tg.train.GradientDescentOptimizer(0.05).minimize(loss, name="train")
            with tg.Session() as sess:
                sess.run(tg.global_variables_initializer())
                prefix = tg.train.Saver().save(sess, os.path.join(directory, "loop_training", kind))
                losses = [float(sess.run([loss, "train"], {x: feed})[0]) for _ in range(3)]
        result[kind] = {"prefix": os.path.relpath(prefix, directory), "x": np.asarray(feed).tolist(),
                        "losses": losses}
    return result


def resave_tf_loops(directory):
    """The loop graphs TensorFlow wrote (record_tf_files.py loop-graphs: frozen GraphDefs), imported and exported
    again by ringflow (tf_round_trip_loops/<kind>.meta), with TensorFlow's recorded feeds and outputs; and its
    training graphs with loops, restored and saved again by ringflow, with ringflow's losses of 3 more steps."""
    with open(os.path.join(TF_GRAPHS, "loop_values.json")) as f:
        record = json.load(f)
    os.makedirs(os.path.join(directory, "tf_round_trip_loops"), exist_ok=True)
    result = {}
    for kind in ("counter", "dynamic_rnn", "map_fn", "nested"):
        with tg.Graph().as_default() as graph:
            with open(os.path.join(TF_GRAPHS, "loops", f"{kind}.pb"), "rb") as f:
                tg.import_graph_def(tg.GraphDef.FromString(f.read()), name="")
            path = os.path.join("tf_round_trip_loops", f"{kind}.meta")
            tg.train.export_meta_graph(os.path.join(directory, path), graph=graph)
        result[kind] = {"meta": path, **record[kind]}
    for kind in ("train", "train_rnn"):  # TF's training graphs: restored, saved again by ringflow, trained on
        prefix = os.path.join(TF_GRAPHS, record[kind]["prefix"])
        with tg.Graph().as_default(), tg.Session() as sess:
            tg.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
            saved = tg.train.Saver().save(sess, os.path.join(directory, "tf_round_trip_loops", kind))
            losses = [float(sess.run(["loss:0", "train"], record[kind]["feeds"])[0]) for _ in range(3)]
        result[kind] = {"prefix": os.path.relpath(saved, directory), "feeds": record[kind]["feeds"],
                        "losses": losses}
    return result


def examples(x):
    """Each row of `x` as a serialized tf.train.Example of one float feature "x"."""
    return [tg.train.Example(features=tg.train.Features(feature={
        "x": tg.train.Feature(float_list=tg.train.FloatList(value=row))})).SerializeToString() for row in x]


def export_classifier(directory):
    """Train a small DNNClassifier, export it for raw float features and for serialized tf.Examples; (the two
    export dirs, its probabilities for INPUT)."""
    rng = np.random.RandomState(0)
    features = rng.randn(64, 2).astype(np.float32)
    labels = (features[:, 0] > 0).astype(np.int64) + (features[:, 1] > 0)
    estimator = tg.estimator.DNNClassifier([8], [tg.feature_column.numeric_column("x", shape=[2])], n_classes=3,
                                           model_dir=os.path.join(directory, "estimator_model"),
                                           config=tg.estimator.RunConfig(tf_random_seed=1))
    estimator.train(tg.estimator.inputs.numpy_input_fn({"x": features}, labels, batch_size=16, num_epochs=3,
                                                       shuffle=False))
    receiver = tg.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tg.placeholder(tg.float32, [None, 2], name="x")})
    export_dir = estimator.export_saved_model(os.path.join(directory, "estimator"), receiver).decode()
    parsing = tg.estimator.export.build_parsing_serving_input_receiver_fn({"x": tg.FixedLenFeature([2], tg.float32)})
    parsing_dir = estimator.export_saved_model(os.path.join(directory, "estimator_parsing"), parsing).decode()
    predicted = estimator.predict(tg.estimator.inputs.numpy_input_fn({"x": INPUT}, shuffle=False))
    return export_dir, parsing_dir, [p["probabilities"].tolist() for p in predicted]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    write(sys.argv[1])
