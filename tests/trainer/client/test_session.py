"""Session.run: fetch structures, feeds, pruning, plan caching and clear errors."""
import collections

import numpy as np
import pytest

import trainer as tg
from trainer.client import session as session_module
from trainer.framework.registry import apply_op, register


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def test_nested_fetches_keep_their_structure():
    a, b = tg.constant(1.0, name="a"), tg.constant(2.0, name="b")
    c = a + b
    Pair = collections.namedtuple("Pair", "x y")
    with tg.Session() as sess:
        out = sess.run({"sum": c, "parts": [a, (b, "a:0")], "pair": Pair(a, c), "op": c.op})
    assert out["sum"] == 3.0 and out["parts"][0] == 1.0
    assert isinstance(out["parts"][1], tuple) and out["parts"][1][1] == 1.0
    assert isinstance(out["pair"], Pair) and out["pair"].y == 3.0
    assert out["op"] is None


def test_feeds_by_tensor_and_by_name():
    x = tg.placeholder(tg.float32, [None, 2], name="x")
    y = x * 2.0
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [[1, 2]]}), [[2, 4]])
        np.testing.assert_array_equal(sess.run(y, {"x:0": np.ones((3, 2))}), 2 * np.ones((3, 2)))
        assert sess.run(y, {x: [[1, 2]]}).dtype == np.float32


def test_a_tuple_of_tensors_is_fed_a_value_of_its_structure():
    # an RNN's state carried from one run to the next: the state fetched is fed back under the zero state
    cell = tg.nn.rnn_cell.LSTMCell(3)
    x = tg.placeholder(tg.float32, [1, 2, 1])
    zero = cell.zero_state(1, tg.float32)
    _, final = tg.nn.dynamic_rnn(cell, x, initial_state=zero)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        state = sess.run(final, {x: np.ones((1, 2, 1))})
        assert type(state).__name__ == "LSTMStateTuple"
        carried = sess.run(final, {x: np.ones((1, 2, 1)), zero: state})
        assert not np.allclose(carried.c, state.c)
        np.testing.assert_array_equal(sess.run(final, {x: np.ones((1, 2, 1)), zero: (state.c * 0, [[0, 0, 0]])}).c,
                                      state.c)
        np.testing.assert_array_equal(sess.run(zero, {zero: state}).h, state.h)
        with pytest.raises(ValueError, match="Key had 2 elements, but value had 1"):
            sess.run(final, {x: np.ones((1, 2, 1)), zero: state.c})
        with pytest.raises(ValueError, match="fed twice"):
            sess.run(final, {x: np.ones((1, 2, 1)), zero: state, zero.c: state.c})


def test_any_tensor_can_be_fed_and_its_producers_are_skipped():
    x = tg.placeholder(tg.float32, [], name="x")
    y = x + 1.0
    z = y * 3.0
    with tg.Session() as sess:
        assert sess.run(z, {y: 2.0}) == 6.0  # x is not needed, so not fed


def test_only_the_needed_subgraph_runs():
    v = tg.Variable(0.0)
    bump = v.assign_add(1.0)
    out = tg.constant(5.0) * 2.0
    with tg.Session() as sess:
        sess.run(v.initializer)
        sess.run(out)
        assert sess.run(v) == 0.0
        sess.run(bump)
        assert sess.run(v) == 1.0


def test_topological_order_follows_dependencies_and_creation():
    v = tg.Variable(1.0)
    read_then = v * 10.0
    with tg.control_dependencies([read_then]):
        update = v.assign(5.0)
    with tg.Session() as sess:
        sess.run(v.initializer)
        before, _ = sess.run([read_then, update])
        assert before == 10.0 and sess.run(v) == 5.0


def test_plan_is_compiled_once_per_fetches_and_feed_keys():
    x = tg.placeholder(tg.float32, [])
    y = x + 1.0
    built = []
    session_module.PLAN_LISTENERS.append(lambda session, plan: built.append(plan))
    try:
        with tg.Session() as sess:
            for i in range(5):
                sess.run(y, {x: i})
            sess.run([y], {x: 0})  # same leaves, same plan
            assert len(built) == 1 and [op.type for op in built[0].ops] == ["Const", "Add"]
            sess.run([y, x], {x: 0})
            assert len(built) == 2
    finally:
        session_module.PLAN_LISTENERS.pop()


def test_a_sparse_feed_is_expanded_on_every_run_and_its_plan_built_once():
    sp, d = tg.sparse_placeholder(tg.float32, shape=[2, 3], name="sp"), tg.placeholder(tg.float32, [2], name="d")
    total = tg.sparse.reduce_sum(sp) + tg.reduce_sum(d)
    built = []
    session_module.PLAN_LISTENERS.append(lambda session, plan: built.append(plan))
    try:
        with tg.Session() as sess:
            values = [sess.run(total, {sp: ([[0, 0], [1, 2]], [float(i), 2.0], [2, 3]), d: [1.0, i]})
                      for i in range(3)]
            assert sess.run(total, {d: [1.0, 1.0], sp: tg.SparseTensorValue([[0, 1]], [5.0], [2, 3])}) == 7.0
    finally:
        session_module.PLAN_LISTENERS.pop()
    assert values == [3.0, 5.0, 7.0] and len(built) == 2  # the second feed order is a second plan


def test_missing_feed_names_the_placeholder():
    x = tg.placeholder(tg.float32, [None, 3], name="images")
    # TF1 raises InvalidArgumentError, an OpError naming the placeholder: programs catch tf.errors.OpError
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError,
                                             match=r"feed a value for placeholder tensor 'images:0' with dtype "
                                                   r"float32 and shape \(None, 3\)") as caught:
        sess.run(x * 2.0)
    assert caught.value.op is x.op and caught.value.error_code == tg.errors.INVALID_ARGUMENT


@pytest.mark.parametrize("dtype", [np.float64, np.float32])  # converted, and of the placeholder's own dtype
def test_wrong_feed_shape_names_both_shapes(dtype):
    x = tg.placeholder(tg.float32, [None, 3], name="x")
    with tg.Session() as sess, pytest.raises(ValueError, match=r"shape \(2, 4\) for Tensor 'x:0', which has "
                                                               r"shape \(None, 3\)"):
        sess.run(x, {x: np.zeros((2, 4), dtype)})


@pytest.mark.parametrize("shape, fed", [([2, 3], (3, 2)), ([2, 3], (2, 3, 1)), ([None, 3], (3,)),
                                        ([None, 3], (2, 1, 3)), ([2, None], (3, 2)), ([], (1,)), ([None], ())])
def test_feeds_of_the_placeholders_dtype_are_checked_too(shape, fed):
    x = tg.placeholder(tg.float32, shape, name="x")
    with tg.Session() as sess:
        assert sess.run(x * 2, {x: np.ones([2 if d is None else d for d in shape], np.float32)}).shape != fed
        with pytest.raises(ValueError, match=r"Cannot feed value of shape"):
            sess.run(x * 2, {x: np.ones(fed, np.float32)})


def test_feeds_convert_to_the_placeholder_dtype_as_tf1_does():
    # TF1's Session.run feeds np.asarray(value, dtype=placeholder dtype): floats into ints truncate toward zero
    labels = tg.placeholder(tg.int32, [3], name="labels")
    flags = tg.placeholder(tg.bool, [2])
    with tg.Session() as sess:
        got = sess.run(labels, {labels: np.array([1.9, -2.7, 3.0])})
        assert got.dtype == np.int32 and got.tolist() == [1, -2, 3]
        assert sess.run(labels, {labels: ["4", "5", "6"]}).tolist() == [4, 5, 6]  # numpy parses numerals
        assert sess.run(flags, {flags: [0.0, 2.5]}).tolist() == [False, True]


def test_unconvertible_feed_names_the_tensor_and_both_types():
    x = tg.placeholder(tg.float32, [2], name="x")
    labels = tg.placeholder(tg.int32, [], name="labels")
    with tg.Session() as sess:
        with pytest.raises(ValueError, match="type str32 for Tensor 'x:0', which has dtype float32: could not"):
            sess.run(x, {x: np.array(["a", "b"])})
        with pytest.raises(TypeError, match=r"Python int 4294967296 to Tensor 'labels:0', which has dtype int32"):
            sess.run(labels, {labels: 2 ** 32})  # TF1 too refuses a Python int the dtype cannot hold


def test_reading_an_uninitialized_variable_names_it():
    v = tg.Variable(1.0, name="weights")
    with tg.Session() as sess, pytest.raises(tg.FailedPreconditionError, match="uninitialized value 'weights'"):
        sess.run(v * 2.0)


def test_a_session_on_an_empty_graph_refuses_to_run_as_tf1_does():
    with tg.Session() as sess, pytest.raises(RuntimeError, match="graph is empty"):
        sess.run([])


def test_closed_session_refuses_to_run():
    sess = tg.Session()
    sess.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(tg.constant(1.0))


def test_fetch_from_another_graph_or_unknown_name():
    other = tg.Graph()
    with other.as_default():
        a = tg.constant(1.0)
    tg.constant(2.0, name="here")
    with tg.Session() as sess:
        with pytest.raises(ValueError, match="not an element of this graph"):
            sess.run(a)
        with pytest.raises(KeyError, match="'nope:0'"):
            sess.run("nope:0")
        with pytest.raises(TypeError, match="invalid type int"):
            sess.run(3)


def test_eval_needs_a_default_session():
    c = tg.constant(2.0)
    with pytest.raises(ValueError, match="no default session"):
        c.eval()
    sess = tg.Session()
    assert c.eval(session=sess) == 2.0
    with sess.as_default():
        assert c.eval() == 2.0


def test_fetched_variable_values_are_snapshots():
    v = tg.Variable(np.zeros(3))
    bump = v.assign_add(np.ones(3))
    with tg.Session() as sess:
        sess.run(v.initializer)
        first = sess.run(v)
        sess.run(bump)
        np.testing.assert_array_equal(first, np.zeros(3))


def test_runtime_errors_name_the_op():
    x = tg.placeholder(tg.float32, [None, None], name="x")
    y = tg.matmul(x, x, name="square")
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError, match="MatMul op 'square' failed"):
        sess.run(y, {x: np.ones((2, 3))})


def test_errors_from_kernels_keep_their_type():
    from trainer.framework.registry import apply_op, register

    class Custom(Exception):
        def __init__(self, rank):
            super().__init__(f"waited for rank {rank}")

    def fail(x):
        raise Custom(3)
    register("TestRaiseCustom", fail)
    y = apply_op("TestRaiseCustom", [tg.constant(1.0)], name="boom")
    with tg.Session() as sess, pytest.raises(Custom, match="TestRaiseCustom op 'boom' failed: waited for rank 3"):
        sess.run(y)


_BUFFER = np.zeros((2, 2), np.float32)
_COPIES = []


def _copy_into_buffer(x):
    _COPIES.append(x is not _BUFFER)
    if x is not _BUFFER:
        _BUFFER[...] = x
    return _BUFFER


# A consumer that copies its input into a buffer it owns, declaring that buffer as the input's destination.
register("TestCopyIntoBuffer", _copy_into_buffer, destinations=lambda op, session: [_BUFFER])


def test_producers_write_straight_into_a_consumers_buffer_only_when_nobody_else_reads():
    a = tg.constant(np.eye(2, dtype=np.float32) * 3)
    b = tg.constant(np.ones((2, 2), np.float32))
    product = tg.matmul(a, b)
    out = apply_op("TestCopyIntoBuffer", [product])
    with tg.Session() as sess:
        _COPIES.clear()
        result = sess.run(out)
        np.testing.assert_array_equal(result, 3 * np.ones((2, 2)))
        assert _COPIES == [False]  # the matmul wrote straight into the buffer
        both = sess.run([out, product])  # fetched: the product keeps its own array, so it is copied
        np.testing.assert_array_equal(both[1], 3 * np.ones((2, 2)))
        np.testing.assert_array_equal(both[0], 3 * np.ones((2, 2)))
        assert _COPIES == [False, True]


_READ = []


def _three_outputs(x, read):
    _READ.append(sorted(read))
    return tuple(x + k if k in read else None for k in range(3))


def _skips_too_much(x, read):
    return x, None


# Kernels told which of their outputs a run reads (register's skips_unread); the second wrongly skips one it reads.
register("TestSkipsUnread", _three_outputs, infer=lambda x: [(x.shape, x.dtype)] * 3, skips_unread=True)
register("TestSkipsTooMuch", _skips_too_much, infer=lambda x: [(x.shape, x.dtype)] * 2, skips_unread=True)


def test_a_kernel_learns_which_outputs_each_run_reads():
    """Read means fetched or an input of an op the run needs; an op outside the run reads nothing."""
    x = tg.constant(np.float32(1.0))
    a, b, c = apply_op("TestSkipsUnread", [x])
    doubled = b * 2.0
    c * 3.0  # a consumer that no run below needs
    with tg.Session() as sess:
        _READ.clear()
        assert sess.run(doubled) == 4.0
        assert sess.run([a, doubled]) == [1.0, 4.0]
        assert sess.run(c) == 3.0
        assert sess.run([c, a]) == [3.0, 1.0]
    assert _READ == [[1], [0, 1], [2], [0, 2]]


def test_an_output_skipped_but_read_raises_naming_the_op():
    a, b = apply_op("TestSkipsTooMuch", [tg.constant(np.float32(1.0))], name="lazy")
    with tg.Session() as sess:
        assert sess.run(a) == 1.0
        with pytest.raises(RuntimeError, match=r"TestSkipsTooMuch op 'lazy' .*no value for its output 1 "
                                               r"\('lazy:1'\), which this run reads"):
            sess.run(b + 1.0)
