"""TF1's TensorArray ops (TensorArrayV3 and its Write/Read/Scatter/Gather/Split/Concat/Size/Close), as an imported
TF graph builds them: values against numpy, gradients through them, and TF's errors for a write out of range or
twice. The ops run on the strict device stand-in too (test_device_standin.py), positions staying on the host."""
import numpy as np
import pytest

import trainer as tg
from trainer.framework.registry import apply_op


def _array(size, dtype=tg.float32, **attrs):
    return apply_op("TensorArrayV3", [tg.constant(size)], name="ta", dtype=dtype, **attrs)


def test_split_then_concat_gives_the_rows_back_with_their_lengths():
    with tg.Graph().as_default():
        value = np.arange(12, dtype=np.float32).reshape(6, 2)
        handle, flow = _array(3)
        flow = apply_op("TensorArraySplitV3", [handle, tg.constant(value), tg.constant([1, 3, 2], tg.int64), flow])
        joined, lengths = apply_op("TensorArrayConcatV3", [handle, flow], dtype=tg.float32)
        size = apply_op("TensorArraySizeV3", [handle, flow])
        second = apply_op("TensorArrayReadV3", [handle, tg.constant(1), flow], dtype=tg.float32)
        with tg.control_dependencies([joined, lengths, second]):
            apply_op("TensorArrayCloseV3", [handle], name="close")  # no outputs: run as an op
        with tg.Session() as sess:
            got = sess.run([joined, lengths, size, second, tg.get_default_graph().get_operation_by_name("close")])
    np.testing.assert_array_equal(got[0], value)
    np.testing.assert_array_equal(got[1], [1, 3, 2])
    assert got[2] == 3
    np.testing.assert_array_equal(got[3], value[1:4])


def test_scatter_gather_and_their_gradients():
    with tg.Graph().as_default():
        x = tg.constant(np.arange(6, dtype=np.float64).reshape(3, 2))
        handle, flow = _array(3, tg.float64, element_shape=[2])
        flow = apply_op("TensorArrayScatterV3", [handle, tg.constant([2, 0, 1]), x, flow])
        picked = apply_op("TensorArrayGatherV3", [handle, tg.constant([0, 0, 2]), flow], dtype=tg.float64,
                          element_shape=[2])
        loss = tg.reduce_sum(picked * tg.constant([[1.0], [2.0], [3.0]], tg.float64))
        grad, = tg.gradients(loss, [x])
        with tg.Session() as sess:
            got, g = sess.run([picked, grad])
    rows = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(got, rows[[1, 1, 0]])  # element k holds row j where indices[j] == k
    # row 1 of x went to element 0, read twice (weights 1 and 2); row 0 to element 2 (weight 3); row 2 unread
    np.testing.assert_array_equal(g, [[3, 3], [3, 3], [0, 0]])


def test_a_write_past_the_size_or_twice_raises_tfs_error():
    with tg.Graph().as_default():
        handle, flow = _array(2)
        one = tg.constant([1.0])
        past = apply_op("TensorArrayWriteV3", [handle, tg.constant(2), one, flow])
        again = apply_op("TensorArrayWriteV3", [handle, tg.constant(0), one,
                                                apply_op("TensorArrayWriteV3", [handle, tg.constant(0), one, flow])])
        with tg.Session() as sess:
            with pytest.raises(tg.errors.InvalidArgumentError, match="out of its size 2"):
                sess.run(past)
            with pytest.raises(tg.errors.InvalidArgumentError, match="already written"):
                sess.run(again)


def test_concat_of_an_empty_array_has_the_shape_its_attr_gives():
    with tg.Graph().as_default():
        handle, flow = _array(0)
        joined, lengths = apply_op("TensorArrayConcatV3", [handle, flow], dtype=tg.float32,
                                   element_shape_except0=[3])
        with tg.Session() as sess:
            got, n = sess.run([joined, lengths])
    assert got.shape == (0, 3) and n.shape == (0,)
