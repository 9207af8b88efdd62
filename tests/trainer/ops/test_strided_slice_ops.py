"""tg.strided_slice(input_, begin, end, strides, *_mask): TF1's documented examples, numpy's indexing as the
oracle for the masks, positions as Tensors, and the gradient."""
import numpy as np
import pytest

import trainer as tg

T = np.array([[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 6, 6]]])


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def run(tensor, feed=None):
    with tg.Session() as sess:
        return sess.run(tensor, feed)


def test_tf1_documented_examples():
    t = tg.constant(T)
    assert run(tg.strided_slice(t, [1, 0, 0], [2, 1, 3], [1, 1, 1])).tolist() == [[[3, 3, 3]]]
    assert run(tg.strided_slice(t, [1, 0, 0], [2, 2, 3], [1, 1, 1])).tolist() == [[[3, 3, 3], [4, 4, 4]]]
    assert run(tg.strided_slice(t, [1, -1, 0], [2, -3, 3], [1, -1, 1])).tolist() == [[[4, 4, 4], [3, 3, 3]]]


@pytest.mark.parametrize("masks, key", [
    (dict(begin_mask=0b001), np.s_[:2, 1:2, 0:3]),
    (dict(end_mask=0b110), np.s_[1:2, 1:, 0:]),
    (dict(shrink_axis_mask=0b010), np.s_[1:2, 1, 0:3]),
    (dict(new_axis_mask=0b010), np.s_[1:2, None, 0:3]),
    (dict(ellipsis_mask=0b010), np.s_[1:2, ..., 0:3]),
    (dict(ellipsis_mask=0b010, new_axis_mask=0b010), np.s_[1:2, ..., 0:3]),  # TF1: the ellipsis wins
    (dict(begin_mask=0b111, end_mask=0b111), np.s_[:, :, :]),
])
def test_masks_pick_each_entry_as_numpy_indexes(masks, key):
    got = run(tg.strided_slice(tg.constant(T), [1, 1, 0], [2, 2, 3], **masks))
    assert got.shape == T[key].shape and (got == T[key]).all()


def test_positions_may_be_scalar_tensors_or_a_vector_tensor():
    data = np.arange(24).reshape(2, 12)
    i = tg.placeholder(tg.int32, [])
    x = tg.strided_slice(tg.constant(data), [0, i * 3], [2, (i + 1) * 3])  # ptb_word_lm's producer
    assert x.shape.as_list() == [2, None]
    assert run(x, {i: 2}).tolist() == data[0:2, 6:9].tolist()
    begin = tg.placeholder(tg.int32, [2])
    y = tg.strided_slice(tg.constant(data), begin, tg.constant([2, 12]), tg.constant([1, 5]))
    assert run(y, {begin: [1, 1]}).tolist() == data[1:2, 1:12:5].tolist()


def test_gradient_scatters_into_the_sliced_places():
    x = tg.constant(np.arange(12.0).reshape(3, 4))
    y = tg.strided_slice(x, [0, 3], [3, 0], [2, -2])
    (grad,) = tg.gradients(tg.reduce_sum(y * y), [x])
    expected = np.zeros((3, 4))
    expected[0:3:2, 3:0:-2] = 2 * np.arange(12.0).reshape(3, 4)[0:3:2, 3:0:-2]
    assert run(grad).tolist() == expected.tolist()


def test_bad_arguments_say_what_is_wrong():
    t = tg.constant(T)
    with pytest.raises(ValueError, match="begin, end and strides of one length, got 2, 3 and 2"):
        tg.strided_slice(t, [0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="one ellipsis"):
        tg.strided_slice(t, [0, 0], [1, 1], ellipsis_mask=0b11)
    with pytest.raises(NotImplementedError, match="length the graph knows"):
        tg.strided_slice(t, tg.placeholder(tg.int32, [None]), [1, 1])


def test_a_list_key_indexes_as_a_tuple_as_in_tf1():
    i = tg.placeholder(tg.int32, [])
    x = tg.constant(T)
    assert run(x[[1, i]], {i: 1}).tolist() == T[1, 1].tolist()  # TF1's _slice_helper: a list is the index tuple
    assert run(x[[slice(None), 0, slice(1, None)]]).tolist() == T[:, 0, 1:].tolist()
