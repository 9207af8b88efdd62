"""tf.Print and tf.print: identity ops that print in TF1's format."""
import time

import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph, run_initialized  # noqa: F401 (fresh_graph: autouse)

RNG = np.random.default_rng(7)


def test_print_is_identity_and_prints_tf1_format(capfd):
    x = tg.constant([1.0, 2.0, 3.0, 4.0])
    y = tg.Print(x, [x, tg.constant(7)], message="vals: ", summarize=2)
    np.testing.assert_array_equal(run_initialized(y * 2.0), [2, 4, 6, 8])
    assert capfd.readouterr().err == "vals: [1 2...][7]\n"


def test_print_first_n_and_gradient(capfd):
    x = tg.placeholder(tg.float32, [3])
    y = tg.Print(x, [x], message="m", first_n=2)
    g, = tg.gradients(tg.reduce_sum(y * y), [x])
    with tg.Session() as sess:
        for _ in range(3):
            out = sess.run(g, {x: [1.0, 2.0, 3.0]})
    np.testing.assert_allclose(out, [2, 4, 6])
    assert capfd.readouterr().err.count("m[1 2 3]") == 2


def test_tf_print_returns_an_op(capfd):
    x = tg.range(10)
    op = tg.print("x:", x, output_stream=__import__("sys").stdout)
    assert isinstance(op, tg.Operation) and tg.print.__name__ == "print"
    run_initialized(op)
    assert capfd.readouterr().out == "x: [0 1 2 ... 7 8 9]\n"


def test_timestamp_is_the_time_the_op_runs():
    stamp = tg.timestamp()
    before = time.time()
    with tg.Session() as sess:
        got = sess.run(stamp)
    assert stamp.dtype == tg.float64 and stamp.shape == () and before <= got <= time.time()
