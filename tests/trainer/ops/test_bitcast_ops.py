"""tf.bitcast reads a tensor's bytes as another type, as numpy's view does; to_complex64/128 cast."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


@pytest.mark.parametrize("value, dtype, shape", [
    (np.array([[1.5, -2.0]], np.float32), np.uint8, (1, 2, 4)),
    (np.arange(6, dtype=np.int16).reshape(3, 2), np.int32, (3,)),
    (np.array([1.0, 2.0]), np.int64, (2,)),
    (np.arange(8, dtype=np.uint8), np.float64, ())])
def test_bitcast_is_numpys_view_of_the_bytes(value, dtype, shape):
    out = tg.bitcast(value, dtype)
    assert out.shape == shape and out.dtype == dtype
    with tg.Session() as sess:
        got = sess.run(out)
    expected = value[..., None].view(dtype) if value.itemsize > np.dtype(dtype).itemsize else value.view(dtype)
    np.testing.assert_array_equal(got, expected.reshape(shape))


def test_bitcast_says_which_shapes_and_dtypes_it_cannot_take():
    with pytest.raises(ValueError, match="last dimension must be 2"):
        tg.bitcast(np.zeros((2, 3), np.int8), tg.int16)
    with pytest.raises(TypeError, match="numeric dtypes.*bool"):
        tg.bitcast(np.zeros(2, bool), tg.int8)
    unknown = tg.bitcast(tg.placeholder(tg.int8, [None, None]), tg.int16)
    assert unknown.shape.as_list() == [None]


def test_to_complex_casts_with_tf1s_names():
    x = tg.constant([1.0, -2.5])
    c64, c128 = tg.to_complex64(x), tg.to_complex128(tg.constant([1, 2]))
    assert (c64.dtype, c128.dtype, c64.op.name) == (tg.complex64, tg.complex128, "ToComplex64")
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(c64), [1.0 + 0j, -2.5 + 0j])
        np.testing.assert_array_equal(sess.run(c128), [1.0 + 0j, 2.0 + 0j])
