"""Write training graphs with ringflow for `scripts/record_tf_files.py check-models DIR` to train on in real
TensorFlow:

    python scripts/ringflow_tf_models.py DIR [NAME ...]

For each model (default: all of MODELS) DIR/<name>/ gets a checkpoint and its .meta, as tf.train.Saver writes
them, and DIR/models.json the feeds, the loss and train op names, and the losses of STEPS more steps in ringflow
(CHAOTIC: fewer, and a tolerance), which TensorFlow must reproduce after import_meta_graph + restore. The models
are scripts/bench_models.py's, a Keras GRU (its recurrent kernel orthogonal: RandomNormal and Qr),
tf.nn.rnn_cell.LSTMCell under dynamic_rnn (one BlockLSTM) and under static_rnn (an LSTMBlockCell a step), and
`ringflow train`'s own graph (the .meta beside its checkpoints: the readiness report and the gradients' finiteness
check, under --nonfinite raise and skip).
"""
import json
import os
import subprocess
import sys

import numpy as np

import bench_models
import trainer as tg

STEPS = 3
# ResNet50 from its initial weights: a ReLU whose input rounds to the other side of 0 in TensorFlow (3 of its last
# 65536 do after one step) moves the gradient by 1%, so the second loss agrees to 1e-3 and the third not at all
CHAOTIC = {"keras-resnet50": {"steps": 2, "tolerance": 2e-3}}
SMALL = {"cnn": 4, "lenet": 4, "mlp": 8, "lstm": 4, "gru": 4, "keras-cnn": 4, "keras-lstm": 4, "keras-resnet50": 8}


class Gated:
    """An optimizer whose minimize joins every gradient before any update (GATE_GRAPH): TensorFlow runs a graph's
    ops in parallel, and an update must not race a gradient that still reads its variable."""

    def __init__(self, optimizer):
        self.optimizer = optimizer

    def minimize(self, loss):
        return self.optimizer.minimize(loss, gate_gradients=tg.train.Optimizer.GATE_GRAPH)


def bench(name, directory):
    """A benchmark model at a small batch, one SGD step per run of its train op."""
    params, x, labels = bench_models.init(name)
    x, labels = x[:SMALL[name]], labels[:SMALL[name]]
    _, sess, train, loss, feed = bench_models.ringflow_step(name, params, x, labels, wrap_optimizer=Gated)
    with sess.graph.as_default():
        return _saved(sess, directory, train, loss, feed, **CHAOTIC.get(name, {}))


def keras_gru(directory):
    rng = np.random.RandomState(0)
    x, y = rng.randn(4, 5, 3).astype(np.float32), rng.randn(4, 2).astype(np.float32)
    with tg.Graph().as_default():
        tg.set_random_seed(3)
        keras = tg.keras
        model = keras.Sequential([keras.layers.GRU(6, input_shape=(5, 3)), keras.layers.Dense(2)])
        loss = tg.reduce_mean(tg.square(model.outputs[0] - y), name="loss")
        train = tg.train.GradientDescentOptimizer(0.1).minimize(loss, name="train",
                                                                gate_gradients=tg.train.Optimizer.GATE_GRAPH)
        sess = keras.backend.get_session()
        sess.run(tg.variables_initializer(tg.global_variables()))
        return _saved(sess, directory, train, loss, {model.inputs[0]: x})


def lstm_cell(directory, steps=False):
    """An LSTMCell over 4 steps: under dynamic_rnn (BlockLSTM), or step by step with static_rnn (LSTMBlockCell)."""
    rng = np.random.RandomState(1)
    x, y = rng.randn(3, 4, 2).astype(np.float32), rng.randn(3, 5).astype(np.float32)
    with tg.Graph().as_default():
        tg.set_random_seed(4)
        inputs = tg.placeholder(tg.float32, [None, 4, 2], name="x")
        if steps:
            last = tg.nn.static_rnn(tg.nn.rnn_cell.LSTMCell(5), tg.unstack(inputs, axis=1), dtype=tg.float32)[0][-1]
        else:
            last = tg.nn.dynamic_rnn(tg.nn.rnn_cell.LSTMCell(5), inputs, dtype=tg.float32)[0][:, -1]
        loss = tg.reduce_mean(tg.square(last - y), name="loss")
        train = tg.train.GradientDescentOptimizer(0.1).minimize(loss, name="train",
                                                                gate_gradients=tg.train.Optimizer.GATE_GRAPH)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            return _saved(sess, directory, train, loss, {inputs: x})


def program(nonfinite):
    """`ringflow train`'s checkpoint and .meta (an MLP), trained on by name as TensorFlow will."""
    def write(directory):
        subprocess.run([sys.executable, "-m", "trainer", "train", "--model", "mlp", "--hidden", "8", "--dataset",
                        "synthetic-classes", "--steps", "3", "--checkpoint-dir", directory, "--no-progress",
                        "--nonfinite", nonfinite], check=True, stdout=subprocess.DEVNULL)
        rng = np.random.RandomState(0)
        feeds = {"features:0": rng.randn(6, 20).astype(np.float32), "labels:0": rng.randint(0, 4, 6),
                 "shard_size:0": np.float32(6)}
        prefix = tg.train.latest_checkpoint(directory)
        with tg.Graph().as_default(), tg.Session() as sess:
            tg.train.import_meta_graph(prefix + ".meta").restore(sess, prefix)
            train = "GradientDescent" if nonfinite == "raise" else "AssignAdd"  # the train op, by its name
            losses = [float(sess.run(["Mean:0", train], feeds)[0]) for _ in range(STEPS)]
        return {"prefix": os.path.relpath(prefix, os.path.dirname(directory)), "train": train, "loss": "Mean:0",
                "feeds": _listed(feeds), "losses": losses, "tolerance": 1e-4,
                "ready_op": ["global_step", "hidden1/bias", "hidden1/kernel", "logits/bias", "logits/kernel"]}
    return write


def _listed(feeds):
    return {name: {"value": np.asarray(v).tolist(), "dtype": np.asarray(v).dtype.name} for name, v in feeds.items()}


def _saved(sess, directory, train, loss, feed, steps=STEPS, tolerance=1e-4):
    prefix = tg.train.Saver().save(sess, os.path.join(directory, "model.ckpt"))
    losses = [float(sess.run([loss, train], feed)[0]) for _ in range(steps)]
    return {"prefix": os.path.relpath(prefix, os.path.dirname(directory)), "train": train.name, "loss": loss.name,
            "feeds": _listed({t.name: v for t, v in feed.items()}), "losses": losses, "tolerance": tolerance}


MODELS = {**{name: lambda d, name=name: bench(name, d) for name in bench_models.NAMES}, "keras-gru": keras_gru,
          "lstm-cell": lstm_cell, "lstm-steps": lambda d: lstm_cell(d, steps=True), "program": program("raise"),
          "program-skip": program("skip")}


def main(directory, names):
    os.makedirs(directory, exist_ok=True)
    record = {}
    for name in names or MODELS:
        record[name] = MODELS[name](os.path.join(directory, name))
        print(f"wrote {name}: losses {record[name]['losses']}")
    with open(os.path.join(directory, "models.json"), "w") as f:
        json.dump({"ringflow": tg.__version__, "models": record}, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
