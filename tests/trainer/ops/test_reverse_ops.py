"""reverse and reverse_sequence against numpy and numerical gradients."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

RNG = np.random.default_rng(7)


def run(fetches, feed=None):
    with tg.Session() as sess:
        return sess.run(fetches, feed)


def _reverse_sequence_np(x, lengths, seq_axis, batch_axis):
    out = x.copy()
    for b, n in enumerate(lengths):
        src = [slice(None)] * x.ndim
        src[batch_axis], src[seq_axis] = b, slice(0, n)
        dst = tuple(src)
        out[dst] = np.flip(x[dst], axis=seq_axis - (batch_axis < seq_axis))
    return out


@pytest.mark.parametrize("axis", [[1], [0, 2], [-1]])
def test_reverse_and_its_gradient(axis):
    x = RNG.standard_normal((2, 3, 4))
    check_op(lambda t: tg.reverse(t, axis), [x], numpy_fn=lambda a: np.flip(a, axis),
             torch_fn=lambda t: torch.flip(t, [a % 3 for a in axis]))
    assert tg.reverse_v2 is tg.reverse


def test_reverse_names_a_repeated_or_bad_axis():
    with tg.Graph().as_default():
        x = tg.constant(np.zeros((2, 3)))
        with pytest.raises(tg.errors.InvalidArgumentError, match="axis 1 is specified more than once"):
            tg.reverse(x, [1, -1])
        with pytest.raises(ValueError, match="axis 2 is out of range for 'Const:0' of rank 2"):
            tg.reverse(x, [2])


@pytest.mark.parametrize("seq_axis,batch_axis", [(1, 0), (0, 2)])
def test_reverse_sequence_and_its_gradient(seq_axis, batch_axis):
    shape = (4, 3, 2)
    x = RNG.standard_normal(shape)
    lengths = np.array([3, 0, 1, 2][:shape[batch_axis]], dtype=np.int64)
    check_op(lambda t, n: tg.reverse_sequence(t, n, seq_axis=seq_axis, batch_axis=batch_axis), [x, lengths],
             numpy_fn=lambda a, n: _reverse_sequence_np(a, n, seq_axis, batch_axis))


def test_reverse_sequence_takes_tf1s_old_names_and_checks_lengths():
    x = np.arange(6.0).reshape(2, 3)
    with tg.Graph().as_default():
        n = tg.placeholder(tg.int32, [None])
        y = tg.reverse_sequence(x, n, seq_dim=1, batch_dim=0)
        np.testing.assert_array_equal(run(y, {n: [3, 2]}), [[2, 1, 0], [4, 3, 5]])
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"seq_lengths value 4 is not in \[0, 3\]"):
            run(y, {n: [4, 1]})
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"seq_lengths has shape \(3,\).*2 entries"):
            run(y, {n: [1, 1, 1]})


@pytest.mark.parametrize("lengths, kwargs, words", [
    ([2, 2, 2], {"seq_axis": 1}, "Dimensions must be equal, but are 2 and 3"),
    ([[2, 2]], {"seq_axis": 1}, "Shape must be rank 1 but is rank 2"),
    ([2, 2], {"seq_axis": 2}, "seq_dim must be < input rank"),
    ([2, 2], {"seq_axis": 1, "batch_axis": 3}, "batch_dim must be < input rank"),
    ([2, 2], {"seq_axis": 0}, "batch_dim == seq_dim == 0"),
])
def test_reverse_sequence_refuses_bad_arguments_when_built_in_tfs_words(lengths, kwargs, words):
    with tg.Graph().as_default(), pytest.raises(ValueError, match=words):
        tg.reverse_sequence([[1, 2], [3, 4]], lengths, **kwargs)


def test_reverse_sequence_of_unknown_rank_is_built_and_runs():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, shape=None)
        y = tg.reverse_sequence(x, tg.placeholder_with_default(np.array([2, 1], np.int64), [2]), seq_axis=1)
        assert y.shape.ndims is None
        np.testing.assert_array_equal(run(y, {x: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}), [[2, 1, 3], [4, 5, 6]])
        with pytest.raises(ValueError, match="a negative seq_dim .-1. needs 'Placeholder:0' to have a known rank"):
            tg.reverse_sequence(x, [1], seq_axis=-1)
