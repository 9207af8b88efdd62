"""Every node of ringflow's exports fits TensorFlow's op definition of its type, as TensorFlow's import checks it
(fixtures/tf_op_defs.json, TF 2.15's, by scripts/record_tf_files.py op-defs): the op exists, its data inputs are as
many as its input args ask (a list's length from its number attr or type-list attr) and every attr without a default
is there (attrs the op lacks TensorFlow's import accepts, as ringflow's "_" ones). TensorFlow itself ran these graphs (record_tf_files.py check-models);
this keeps them importable without it."""
import json
import pathlib

import numpy as np
import pytest

import trainer as tg
from trainer.parallel.nonfinite import apply_gradients

DEFS = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_op_defs.json").read_text())["ops"]


def misfits(graph_def):
    """'node (op): what TensorFlow's import refuses' for each node that does not fit its op definition."""
    found = []
    for node in graph_def.node:
        spec = DEFS.get(node.op)
        if spec is None:
            found.append(f"{node.name} ({node.op}): no such op in TensorFlow")
            continue
        missing = sorted(k for k, has_default in spec["attrs"].items() if not has_default and k not in node.attr)
        if missing:
            found.append(f"{node.name} ({node.op}): attrs missing {missing}")
            continue
        wanted = sum(node.attr[n].i if n else len(node.attr[t].list.type) if t else 1 for n, t in spec["inputs"])
        given = len([i for i in node.input if not i.startswith("^")])
        if given != wanted:
            found.append(f"{node.name} ({node.op}): {given} inputs, TensorFlow's op takes {wanted}")
    return found


def cnn():
    x = tg.placeholder(tg.float32, [None, 8, 8, 3], name="x")
    training = tg.placeholder_with_default(True, [], name="training")
    h = tg.layers.conv2d(tf_pad(x), 4, 3, activation=tg.nn.relu)
    h = tg.layers.batch_normalization(tg.layers.max_pooling2d(h, 2, 2), training=training)
    h = tg.layers.dropout(tg.layers.flatten(h), 0.3, training=training)
    logits = tg.layers.dense(h, 3, kernel_initializer=tg.keras.initializers.Orthogonal())
    labels = tg.placeholder(tg.int64, [None], name="y")
    loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    return tg.train.AdamOptimizer(0.01).minimize(loss)


def tf_pad(x):
    return tg.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")


def recurrent():
    x = tg.placeholder(tg.float32, [None, 5, 3], name="x")
    outputs, _ = tg.nn.dynamic_rnn(tg.nn.rnn_cell.LSTMCell(4), x, dtype=tg.float32, scope="lstm")
    steps, _ = tg.nn.static_rnn(tg.nn.rnn_cell.LSTMCell(4), tg.unstack(x, axis=1), dtype=tg.float32, scope="cell")
    gru = tg.keras.layers.GRU(4)(x)
    loss = tg.reduce_sum(outputs[:, -1]) + tg.reduce_sum(steps[-1]) + tg.reduce_sum(gru)
    return tg.train.GradientDescentOptimizer(0.1).minimize(loss)


def program():
    """What `ringflow train` builds around a model: the finiteness check, the readiness reports, a Saver."""
    x = tg.placeholder(tg.float32, [None, 2], name="x")
    w = tg.Variable(tg.random_normal([2, 1], seed=1), name="w")
    loss = tg.reduce_mean(tg.square(tg.matmul(x, w)))
    step = tg.train.get_or_create_global_step()
    optimizer = tg.train.GradientDescentOptimizer(0.1)
    for policy in ("raise", "skip"):
        apply_gradients(optimizer, optimizer.compute_gradients(loss), policy, global_step=step)
    tg.report_uninitialized_variables()
    tg.assert_variables_initialized()
    tg.train.Saver()


def losses():
    x = tg.placeholder(tg.float32, None, name="x")
    table = tg.Variable(np.ones((5, 2), np.float32), name="table")
    rows = tg.nn.embedding_lookup(table, tg.constant([0, 3, 3]))
    value = tg.reduce_sum(x) + tg.reduce_sum(tg.cumsum(rows, axis=1))
    value += tg.reduce_mean(tg.nn.sigmoid_cross_entropy_with_logits(labels=tg.ones_like(rows), logits=rows))
    up = tg.nn.conv2d_transpose(tg.reshape(rows, [1, 1, 3, 2]), tg.ones([2, 2, 1, 2]), [1, 2, 6, 1], [1, 2, 2, 1])
    tg.summary.merge([tg.summary.scalar("v", value), tg.summary.histogram("rows", rows)])
    return tg.train.GradientDescentOptimizer(0.1).minimize(value + tg.reduce_sum(up))


def state():
    counts = tg.Variable([0, 0], name="counts")
    grown = tg.Variable([], validate_shape=False, name="grown")
    tg.assign(grown, [1.0, 2.0], validate_shape=False)
    tg.scatter_add(counts, [1], [4])
    queue = tg.RandomShuffleQueue(8, 2, [tg.float32, tg.int32], shapes=[[2], []])
    queue.enqueue_many([[[1.0, 2.0]], [3]])
    queue.dequeue_many(1)
    tg.cond(tg.constant(True), lambda: tg.assign(counts, [1, 2]), lambda: tg.identity(counts))
    tg.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + tg.cast(i, tg.float32)), [0, 0.0])
    tg.random_uniform([2], maxval=tg.constant(5), dtype=tg.int32, seed=3)
    tg.truncated_normal([2], stddev=2.0, seed=4)


@pytest.mark.parametrize("build", [cnn, recurrent, program, losses, state], ids=lambda f: f.__name__)
def test_every_exported_node_fits_tensorflows_op_definition(build):
    with tg.Graph().as_default() as g:
        tg.set_random_seed(0)
        build()
        graph_def = tg.train.export_meta_graph().graph_def
    assert misfits(graph_def) == []
    assert misfits(g.as_graph_def()) == []


def test_the_check_names_what_tensorflow_refuses():
    with tg.Graph().as_default() as g:
        x = tg.placeholder(tg.float32, [2], name="x")
        tg.concat([x, x], 0, name="both")
        tg.concat([x, x], 0, name="short")
    graph_def = g.as_graph_def()
    nodes = {n.name: n for n in graph_def.node}
    nodes["both"].attr.pop("N")
    del nodes["short"].input[0]
    graph_def.node.add(name="odd", op="RingflowOnly")
    assert misfits(graph_def) == ["both (ConcatV2): attrs missing ['N']",
                                  "short (ConcatV2): 2 inputs, TensorFlow's op takes 3",
                                  "odd (RingflowOnly): no such op in TensorFlow"]
