"""Array ops: reshape, transpose, concat, cast, one_hot, argmax, equal, slicing, shape, through the oracle."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

X = np.random.default_rng(0).standard_normal((2, 3, 4))


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("shape", [(6, 4), (-1, 2), (24,), (2, 12, 1)], ids=str)
def test_reshape(shape, dynamic):
    check_op(lambda t: tg.reshape(t, shape), [X], torch_fn=torch and (lambda t: t.reshape(shape)), dynamic=dynamic)


def test_reshape_infers_the_minus_one_dim():
    with tg.Graph().as_default():
        assert tg.reshape(tg.zeros([2, 3, 4]), [-1, 4]).shape == (6, 4)
        assert tg.reshape(tg.placeholder(tg.float32, [None, 3]), [-1]).shape == (None,)


@pytest.mark.parametrize("perm", [None, (0, 2, 1), (2, 0, 1)], ids=str)
def test_transpose(perm):
    check_op(lambda t: tg.transpose(t, perm), [X],
             torch_fn=torch and (lambda t: t.permute(*(perm or (2, 1, 0)))))


def test_transpose_of_unknown_rank_reverses_the_dims_it_has_at_run_time():
    x = tg.placeholder(tg.float32)  # no shape: TF builds the reversed perm from the rank at run time
    y = tg.transpose(x * 2.0)
    weights = np.arange(24.0).reshape(4, 3, 2)
    grad, = tg.gradients(tg.reduce_sum(y * weights), [x])
    assert y.shape.ndims is None
    with tg.Session() as sess:
        value, wrt_x = sess.run([y, grad], {x: X})
    np.testing.assert_allclose(value, 2 * X.transpose(), rtol=1e-6)
    np.testing.assert_allclose(wrt_x, 2 * weights.transpose())


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis):
    rng = np.random.default_rng(1)
    shapes = {0: [(1, 3), (2, 3)], 1: [(2, 1), (2, 3)], -1: [(2, 2), (2, 1)]}[axis]
    arrays = [rng.standard_normal(s) for s in shapes]
    check_op(lambda a, b: tg.concat([a, b], axis), arrays, torch_fn=torch and (lambda a, b: torch.cat([a, b], axis)))
    check_op(lambda a, b: tg.concat([a, b, a], axis), arrays, dynamic=True,
             numpy_fn=lambda a, b: np.concatenate([a, b, a], axis))


@pytest.mark.parametrize("key", [1, (slice(None), 0), (Ellipsis, slice(1, 3)), (slice(None, None, -1), None, 2),
                                 (0, slice(0, 3, 2), slice(None))], ids=str)
def test_strided_slice(key):
    check_op(lambda t: t[key], [X], numpy_fn=lambda a: a[key])
    check_op(lambda t: t[key], [X], dynamic=True, numpy_fn=lambda a: a[key])


def test_slice_rejects_tensor_indices():
    with tg.Graph().as_default():
        x = tg.zeros([3])
        with pytest.raises(TypeError, match="index"):
            x[x]


def test_cast_gradient_flows_between_float_dtypes():
    with tg.Graph().as_default():
        x = tg.constant([1.5, -2.0], dtype=tg.float64)
        y = tg.cast(x, tg.float32)
        g, = tg.gradients(tg.reduce_sum(y * y), [x])
        i = tg.cast(x, tg.int32)
        with tg.Session() as sess:
            gv, iv, yv = sess.run([g, i, y])
    assert g.dtype == np.float64 and gv.tolist() == [3.0, -4.0]
    assert iv.dtype == np.int32 and iv.tolist() == [1, -2] and yv.dtype == np.float32


def test_one_hot_argmax_equal_shape():
    with tg.Graph().as_default():
        labels = tg.placeholder(tg.int32, [None])
        hot = tg.one_hot(labels, 4)
        best = tg.argmax(hot, axis=1)
        same = tg.equal(best, tg.cast(labels, tg.int64))
        with tg.Session() as sess:
            h, b, s, shp = sess.run([hot, best, same, tg.shape(hot)], {labels: [2, 0, 3, -1]})
    assert hot.shape == (None, 4) and h.dtype == np.float32
    np.testing.assert_array_equal(h, [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]])
    assert b.dtype == np.int64 and b.tolist() == [2, 0, 3, 0] and s.tolist() == [True, True, True, False]
    assert shp.tolist() == [4, 4]


def test_zeros_like_and_ones_like():
    check_op(lambda t: tg.zeros_like(t) + tg.ones_like(t) + t, [X], numpy_fn=lambda a: 1 + a)


def test_reshape_to_a_tensor_shape_and_with_tensor_dims():
    check_op(lambda t: tg.reshape(t, tg.shape(tg.zeros([6, 4]))), [X], numpy_fn=lambda a: a.reshape(6, 4))
    check_op(lambda t: tg.reshape(t, [tg.shape(t)[0], -1]), [X], dynamic=True, numpy_fn=lambda a: a.reshape(2, 12))
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 4])
        # TF1 reads the static shape from the packed entries it knows
        assert tg.reshape(x, tg.stack([tg.shape(x)[0] * 2, 2])).shape.as_list() == [None, 2]
        with pytest.raises(ValueError, match="24 elements"):
            tg.reshape(tg.zeros([2, 3, 4]), [5, 5])


@pytest.mark.parametrize("axis", [0, 1, -1, 2, -3])
def test_stack_unstack_expand_dims_squeeze(axis):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    check_op(lambda x, y: tg.stack([x, y], axis=axis), [a, b], numpy_fn=lambda x, y: np.stack([x, y], axis))
    check_op(lambda x: tg.squeeze(tg.expand_dims(x, axis), axis=[axis]), [a], numpy_fn=lambda x: x)
    check_op(lambda x: tg.expand_dims(x, dim=axis), [a], numpy_fn=lambda x: np.expand_dims(x, axis))
    if -2 <= axis <= 1:
        check_op(lambda x: tg.unstack(x, axis=axis)[1] * 2.0, [a], numpy_fn=lambda x: np.moveaxis(x, axis, 0)[1] * 2)
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="squeeze dim"):
            tg.squeeze(tg.zeros([2, 3]), axis=[0])


def test_split_tile_pad():
    check_op(lambda t: tg.split(t, 2, axis=2)[1], [X], numpy_fn=lambda a: a[:, :, 2:])
    check_op(lambda t: tg.split(t, [1, -1, 1], 1)[1] * 3.0, [X], numpy_fn=lambda a: a[:, 1:2] * 3)
    check_op(lambda t: tg.tile(t, [2, 1, 3]), [X], numpy_fn=lambda a: np.tile(a, (2, 1, 3)))
    for mode in ["CONSTANT", "REFLECT", "symmetric"]:
        check_op(lambda t: tg.pad(t, [[1, 0], [2, 1], [0, 2]], mode=mode), [X],
                 numpy_fn=lambda a: np.pad(a, [[1, 0], [2, 1], [0, 2]], mode=mode.lower()))
    check_op(lambda t: tg.pad(t, [[0, 1], [1, 1], [0, 0]], constant_values=2.5), [X],
             numpy_fn=lambda a: np.pad(a, [[0, 1], [1, 1], [0, 0]], constant_values=2.5))
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="evenly divisible by 3 but is 4"):
            tg.split(tg.zeros([4]), 3)
        with pytest.raises(ValueError, match="mode REFLECT"):
            tg.pad(tg.zeros([2]), [[2, 0]], "REFLECT")
        # TF's words when building: the known dims must divide the element count, or match it
        with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 17 but is 20677"):
            tg.reshape(tg.zeros([23, 29, 31]), [17, -1])
        with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 4096 elements to shape \[4095\]"):
            tg.reshape(tg.zeros([32, 128]), [4095])


def test_fill_range_size_rank_gather():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3])
        filled = tg.fill(tg.shape(x), 7.0)
        out = [filled, tg.range(5), tg.range(1, 2, 0.25), tg.range(10, 0, -3, dtype=tg.int64), tg.size(x),
               tg.rank(x), tg.fill([2], 1)]
        # as in TF1, the static shape is read through tg.shape(x)
        assert out[1].shape == (5,) and out[2].dtype == np.float32 and filled.shape.as_list() == [None, 3]
        with tg.Session() as sess:
            v = sess.run(out, {x: np.zeros((2, 3))})
    assert v[0].tolist() == [[7.0] * 3] * 2 and v[1].tolist() == [0, 1, 2, 3, 4] and v[1].dtype == np.int32
    assert v[2].tolist() == [1.0, 1.25, 1.5, 1.75] and v[3].tolist() == [10, 7, 4, 1] and v[3].dtype == np.int64
    assert v[4] == 6 and v[5] == 2 and v[6].tolist() == [1, 1]
    check_op(lambda t: tg.gather(t, tg.constant([[1, 0], [1, 1]]), axis=1), [X], numpy_fn=lambda a: a[:, [[1, 0], [1, 1]]])


def test_fill_of_zeros_keeps_the_values_sign_and_dtype():
    # tf.zeros of a run-time shape (an RNN's zero state) and fills of -0.0, False and other values, each exactly
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 3])
        dims = tg.stack([tg.shape(x)[0], 4])
        fills = [tg.zeros(dims), tg.fill(dims, -0.0), tg.fill(dims, tg.constant(0, tg.int64)),
                 tg.fill(dims, False), tg.fill(dims, tg.constant(0.0, tg.float16)), tg.fill(dims, 2.5),
                 tg.fill(dims, tg.constant(-0.0 - 0.0j, tg.complex64))]
        with tg.Session() as sess:
            values = sess.run(fills, {x: np.ones((2, 3), np.float32)})
    for value, t, bits in zip(values, fills, [0.0, -0.0, 0, False, 0.0, 2.5, -0.0 - 0.0j]):
        assert value.shape == (2, 4) and value.dtype == t.dtype
        expected = np.full((2, 4), bits, dtype=t.dtype)
        assert value.tobytes() == expected.tobytes(), (t.name, value, expected)


@pytest.mark.parametrize("shape", [(), (3,), (2, 2)], ids=str)
def test_stack_of_numbers_and_arrays_of_one_shape_is_np_stack(shape):
    rng = np.random.default_rng(3)
    values = [rng.standard_normal(shape).astype(np.float32) for _ in range(3)]
    with tg.Graph().as_default():
        x = tg.placeholder(tg.int64, [None])
        packed = tg.stack([tg.shape(x)[0], tg.constant(7)])  # a numpy scalar and a 0-d array
        floats = tg.stack([tg.constant(v) for v in values])
        mixed = tg.stack([tg.constant(v) for v in values], axis=-1)
        with tg.Session() as sess:
            p, f, m = sess.run([packed, floats, mixed], {x: [1, 2, 3, 4, 5]})
    assert p.dtype == np.int32 and p.tolist() == [5, 7]
    assert f.dtype == np.float32 and f.tobytes() == np.stack(values).tobytes()
    assert m.tobytes() == np.stack(values, axis=-1).tobytes()


def test_one_hot_tf1_signature_and_argmin():
    with tg.Graph().as_default():
        idx = tg.constant([0, 2, -1])
        cols = tg.one_hot(idx, 3, on_value=5, off_value=-1, axis=0)
        floats = tg.one_hot(idx, 3, 2.0)
        labels = tg.argmax(tg.constant([[1.0, 3.0], [4.0, 2.0]]), dimension=1, output_type=tg.int32)
        low = tg.argmin(tg.constant([[1.0, 3.0], [4.0, 2.0]]), axis=0)
        casts = [tg.to_float(idx), tg.to_int64(idx), tg.to_double(idx), tg.to_int32(tg.to_float(idx))]
        with tg.Session() as sess:
            c, f, lab, lo, *cv = sess.run([cols, floats, labels, low] + casts)
    assert cols.shape == (3, 3) and c.dtype == np.int32
    np.testing.assert_array_equal(c, [[5, -1, -1], [-1, -1, -1], [-1, 5, -1]])
    assert f.dtype == np.float32 and f.tolist() == [[2, 0, 0], [0, 0, 2], [0, 0, 0]]
    assert lab.dtype == np.int32 and lab.tolist() == [1, 0] and lo.dtype == np.int64 and lo.tolist() == [0, 1]
    assert [v.dtype for v in cv] == [np.float32, np.int64, np.float64, np.int32]
    assert casts[0].op.name == "ToFloat"


def test_cast_between_numbers_and_strings_fails_when_run_as_in_tf():
    with tg.Graph().as_default(), tg.Session() as sess:
        to_text, to_number = tg.cast(np.arange(3), tg.string), tg.cast(tg.constant(["1"]), tg.float32)
        for op, words in ((to_text, "Cast int64 to string is not supported"),
                          (to_number, "Cast string to float32 is not supported")):
            with pytest.raises(tg.errors.UnimplementedError, match=words):
                sess.run(op)


@pytest.mark.parametrize("kwargs, dtype", [
    # what TF 2.15's tf.compat.v1.one_hot answered for each of these five and the first error, recorded by hand
    ({"on_value": 1.0, "dtype": tg.float64}, tg.float64), ({"on_value": 1, "dtype": tg.float32}, tg.float32),
    ({"off_value": 0.0}, tg.float32), ({"on_value": 1, "off_value": -1}, tg.int32), ({}, tg.float32),
    ({"on_value": 1, "off_value": 0.0}, "dtype tf.int32 of on_value does not match dtype tf.float32 of off_value"),
    # TF 1.15's check (TF 2.15 converts a numpy on_value to the dtype asked for instead): numpy keeps its dtype
    ({"on_value": np.float64(1.0), "dtype": tg.float32}, "dtype tf.float64 of on_value does not match dtype param"),
    ({"on_value": np.asarray(1.0), "off_value": np.float32(0.0)}, "tf.float64 of on_value does not match dtype tf"),
])
def test_one_hot_takes_its_dtype_and_checks_on_and_off_values_as_tf(kwargs, dtype):
    with tg.Graph().as_default():
        if isinstance(dtype, str):
            with pytest.raises(TypeError, match=dtype):
                tg.one_hot([0, 1], 2, **kwargs)
        else:
            assert tg.one_hot([0, 1], 2, **kwargs).dtype == dtype


@pytest.mark.parametrize("s0, s1, r0, r1", [  # TensorFlow's raw_ops.BroadcastGradientArgs on each pair
    ([2, 3], [3], [], [0]), ([2, 1, 4], [3, 1], [1], [0, 2]), ([1], [1], [], []), ([5, 1], [1, 5], [1], [0]),
    ([], [2, 2], [0, 1], []), ([4, 3], [4, 3], [], []), ([2, 1], [1], [1], [0, 1])])
def test_broadcast_gradient_args_names_the_axes_each_operand_sums_over(s0, s1, r0, r1):
    with tg.Graph().as_default(), tg.Session() as sess:
        a, b = tg.constant(s0, dtype=tg.int32), tg.constant(s1, dtype=tg.int32)
        op = tg.get_default_graph().create_op("BroadcastGradientArgs", [a, b], [((None,), tg.int32)] * 2)
        got = sess.run(list(op.outputs))
    assert [got[0].tolist(), got[1].tolist()] == [r0, r1] and got[0].dtype == np.int32


def test_broadcast_gradient_args_refuses_shapes_that_do_not_broadcast():
    with tg.Graph().as_default(), tg.Session() as sess:
        a, b = tg.constant([2, 3]), tg.constant([4])
        op = tg.get_default_graph().create_op("BroadcastGradientArgs", [a, b], [((None,), tg.int32)] * 2)
        with pytest.raises(tg.errors.InvalidArgumentError, match="Incompatible shapes: \\[2, 3\\] vs. \\[4\\]"):
            sess.run(op.outputs[0])


def test_shape_n_and_concat_offset_as_tf_gradient_graphs_use_them():
    # TensorFlow's raw_ops.ShapeN and ConcatOffset on these inputs
    with tg.Graph().as_default(), tg.Session() as sess:
        graph = tg.get_default_graph()
        xs = [tg.zeros([2, 3]), tg.constant(1.0), tg.zeros([4, 0, 1])]
        shapes = graph.create_op("ShapeN", xs, [((2,), tg.int32), ((0,), tg.int32), ((3,), tg.int32)],
                                 attrs={"out_type": tg.int32}).outputs
        assert [v.tolist() for v in sess.run(list(shapes))] == [[2, 3], [], [4, 0, 1]]
        sizes = [tg.constant(s, dtype=tg.int32) for s in ([2, 3, 5], [2, 7, 5], [2, 1, 5])]
        offsets = graph.create_op("ConcatOffset", [tg.constant(1)] + sizes, [((3,), tg.int32)] * 3).outputs
        assert [v.tolist() for v in sess.run(list(offsets))] == [[0, 0, 0], [0, 3, 0], [0, 10, 0]]
        last = graph.create_op("ConcatOffset", [tg.constant(-1), tg.constant([2, 3]), tg.constant([2, 4])],
                               [((2,), tg.int32)] * 2).outputs
        assert [v.tolist() for v in sess.run(list(last))] == [[0, 0], [0, 3]]


def test_tfs_broadcast_to_and_mirror_pad_grad_nodes_run_with_their_gradients():
    """The ops a GraphDef TensorFlow writes holds (ringflow's own graphs build them otherwise): BroadcastTo, whose
    gradient sums back, and MirrorPadGrad, each padded position's gradient added to the element it copies."""
    def const(name, value):
        array = np.asarray(value, np.int32)
        return tg.NodeDef(name=name, op="Const", attr={"dtype": tg.AttrValue(type=tg.int32.as_datatype_enum),
                                                       "value": tg.AttrValue(tensor=tg.make_tensor_proto(array))})
    t = {"T": tg.AttrValue(type=tg.float32.as_datatype_enum)}
    def placeholder(name, shape):
        return tg.NodeDef(name=name, op="Placeholder", attr={
            "dtype": tg.AttrValue(type=tg.float32.as_datatype_enum),
            "shape": tg.AttrValue(shape=tg.TensorShape(shape).as_proto())})
    graph_def = tg.GraphDef(node=[
        placeholder("x", [2, 1]), const("shape", [2, 3]),
        tg.NodeDef(name="spread", op="BroadcastTo", input=["x", "shape"], attr={**t, "Tidx": t["T"]}),
        placeholder("g", [4, 3]), const("paddings", [[1, 1], [0, 0]]),
        tg.NodeDef(name="folded", op="MirrorPadGrad", input=["g", "paddings"],
                   attr={**t, "mode": tg.AttrValue(s=b"REFLECT")})])
    x, g = np.array([[1.0], [2.0]], np.float32), np.arange(12, dtype=np.float32).reshape(4, 3)
    with tg.Graph().as_default() as graph:
        tg.import_graph_def(graph_def, name="")
        spread, folded = graph.get_tensor_by_name("spread:0"), graph.get_tensor_by_name("folded:0")
        weights = tg.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
        dx = tg.gradients(tg.reduce_sum(spread * weights), graph.get_tensor_by_name("x:0"))[0]
        with tg.Session() as sess:
            got = sess.run([spread, folded, dx], {"x:0": x, "g:0": g})
    np.testing.assert_array_equal(got[0], np.broadcast_to(x, (2, 3)))
    np.testing.assert_array_equal(got[1], [g[1] + g[3], g[0] + g[2]])  # REFLECT pads r1 r0 r1 r0
    np.testing.assert_array_equal(got[2], [[3.0], [12.0]])
