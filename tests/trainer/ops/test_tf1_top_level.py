"""TF1's remaining top-level names: batch_gather, required_space_to_batch_paddings, sparse_matmul and
guarantee_const against numpy; the dtypes, version, scope and switch names against what TF 1.15 gives."""
import numpy as np
import pytest

import trainer as tg
from trainer.framework.registry import OPS, apply_op, register
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


def test_batch_gather_takes_each_batchs_rows_and_its_gradient_adds_them_back():
    params = np.arange(24.0).reshape(2, 3, 4)
    indices = np.array([[2, 0, 2], [1, 1, 0]])
    x = tg.constant(params)
    out = tg.batch_gather(x, indices)
    grad = tg.gradients(out, x)[0]
    with tg.Session() as sess:
        got, g = sess.run([out, grad])
    np.testing.assert_array_equal(got, np.take_along_axis(params, indices[..., None], 1))
    expected = np.zeros_like(params)
    for b in range(2):
        np.add.at(expected[b], indices[b], 1.0)
    np.testing.assert_array_equal(g, expected)
    with pytest.raises(ValueError, match="known rank"):
        tg.batch_gather(x, tg.placeholder(tg.int32))


@pytest.mark.parametrize("shape, block, base", [([5, 7], [2, 3], [[1, 0], [0, 2]]), ([4], [4], None),
                                                ([3, 1], [2, 2], [[0, 0], [1, 1]])])
def test_required_space_to_batch_paddings_make_multiples_of_the_blocks(shape, block, base):
    fed = tg.placeholder(tg.int32, [len(shape)])
    paddings, crops = tg.required_space_to_batch_paddings(fed, block, base)
    with tg.Session() as sess:
        p, c = sess.run([paddings, crops], {fed: shape})
    base = np.zeros((len(shape), 2), int) if base is None else np.array(base)
    np.testing.assert_array_equal(p[:, 0], base[:, 0])
    assert ((np.array(shape) + p.sum(1)) % block == 0).all() and (p[:, 1] - base[:, 1] < block).all()
    np.testing.assert_array_equal(c, np.stack([np.zeros(len(shape)), p[:, 1] - base[:, 1]], 1))


def test_sparse_matmul_is_the_float32_product_and_guarantee_const_an_identity():
    a, b = np.arange(6.0, dtype=np.float32).reshape(2, 3), np.ones((2, 3), np.float32)
    with tg.Session() as sess:
        product, same = sess.run([tg.sparse_matmul(a, b, transpose_b=True, b_is_sparse=True),
                                  tg.guarantee_const(a)])
    np.testing.assert_array_equal(product, a @ b.T)
    np.testing.assert_array_equal(same, a)
    with pytest.raises(TypeError, match="float32"):
        tg.sparse_matmul(a.astype(np.float64), b.T)


def test_quantized_and_handle_dtypes_are_tf1s():
    assert tg.QUANTIZED_DTYPES == {tg.qint8, tg.quint8, tg.qint16, tg.quint16, tg.qint32}
    assert tg.as_dtype("qint8") is tg.qint8 and tg.as_dtype(13) is tg.qint32 and tg.resource.as_datatype_enum == 20
    assert tg.qint8.is_quantized and not tg.qint8.is_integer and tg.quint16.size == 2
    assert tg.qint8.as_numpy_dtype == np.dtype([("qint8", np.int8)])
    assert not tg.variant.is_numpy_compatible and tg.as_dtype(np.dtype(object)) is tg.string
    with pytest.raises(TypeError, match="not a real number type"):
        tg.qint8.min


def test_version_constants_and_mode_switches_say_what_ringflow_is():
    assert (tg.version.GRAPH_DEF_VERSION, tg.GRAPH_DEF_VERSION_MIN_CONSUMER, tg.MONOLITHIC_BUILD) == (119, 0, 0)
    assert isinstance(tg.version.COMPILER_VERSION, str) and tg.CXX11_ABI_FLAG == 0
    assert not tg.executing_eagerly_outside_functions() and not tg.resource_variables_enabled()
    assert tg.VariableAggregation.ONLY_FIRST_TOWER is tg.VariableAggregation.ONLY_FIRST_REPLICA
    assert [s.name for s in tg.VariableSynchronization] == ["AUTO", "NONE", "ON_WRITE", "ON_READ"]
    with pytest.raises(NotImplementedError, match="C\\+\\+ op libraries"):
        tg.load_op_library("custom.so")


def test_deprecated_scopes_static_values_and_dimensions():
    x = tg.constant([1, 2])
    with tg.op_scope([x], None, "outer") as scope:
        y = tg.identity(x)
    with tg.variable_op_scope([x], None, "block"):
        v = tg.get_variable("v", [1])
    assert scope == "outer/" and y.name == "outer/Identity:0" and v.name == "block/v:0"
    np.testing.assert_array_equal(tg.get_static_value(x), [1, 2])
    assert tg.get_static_value(tg.placeholder(tg.int32)) is None
    assert tg.dimension_at_index(tg.TensorShape([2, None]), 0) == 2
    assert tg.dimension_at_index(tg.TensorShape(None), 3).value is None
    assert tg.is_symbolic_tensor(x) and not tg.is_symbolic_tensor(np.ones(2))
    assert tg.convert_to_tensor_or_indexed_slices([1.0], tg.float64).dtype == tg.float64


def test_device_spec_reads_merges_and_writes_device_strings_as_tf1():
    spec = tg.DeviceSpec.from_string("/job:ps/replica:0/task:2/cpu:1")
    assert (spec.job, spec.replica, spec.task, spec.device_type, spec.device_index) == ("ps", 0, 2, "CPU", 1)
    worker = tg.DeviceSpec(job="worker", device_type="gpu")
    assert worker.to_string() == "/job:worker/device:GPU:*"
    assert worker.make_merged_spec(tg.DeviceSpec(task=3)).to_string() == "/job:worker/task:3/device:GPU:*"
    assert spec.replace(job="w") == tg.DeviceSpec.from_string("/job:w/replica:0/task:2/device:CPU:1")
    with tg.device(spec):
        assert tg.constant(1.0).op.device == "/job:ps/replica:0/task:2/device:CPU:1"
    with pytest.raises(ValueError, match="Unknown device specification '/foo:bar'"):
        tg.DeviceSpec.from_string("/foo:bar")


def test_registered_conversion_functions_let_every_op_take_a_type():
    class Interval:  # a new type each run: the registry, like TF's, is the process's and keeps what it was given
        def __init__(self, low, high):
            self.low, self.high = low, high

    calls = []

    def to_tensor(value, dtype=None, name=None, as_ref=False):
        calls.append(dtype)
        return tg.constant([value.low, value.high], dtype=dtype, name=name)

    tg.register_tensor_conversion_function(Interval, to_tensor)
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(tg.add(Interval(1.0, 2.0), 1.0)), [2.0, 3.0])
        assert sess.run(tg.convert_to_tensor(Interval(1, 4), tg.float64)).tolist() == [1.0, 4.0]
    assert calls[-1] == tg.float64
    with pytest.raises(TypeError, match="Python numeric types and NumPy"):
        tg.register_tensor_conversion_function(np.ndarray, to_tensor)


@pytest.fixture
def op_types_without_gradients():
    register("TopLevelTestDouble", lambda x: x * 2)
    register("TopLevelTestSign", lambda x: np.sign(x))
    yield
    for name in ("TopLevelTestDouble", "TopLevelTestSign"):  # the registry is the process's: leave it as found
        OPS.pop(name)


def test_not_differentiable_and_register_gradient_set_a_registered_op_types_gradient(op_types_without_gradients):
    x = tg.constant([1.0, -3.0])
    double = apply_op("TopLevelTestDouble", [x])
    sign = apply_op("TopLevelTestSign", [x])
    with pytest.raises(NotImplementedError, match="TopLevelTestDouble"):
        tg.gradients(double, x)

    @tg.RegisterGradient("TopLevelTestDouble")
    def _double_grad(op, grad):
        return grad * 2.0  # one Tensor for the one input, as TF1 allows

    tg.NotDifferentiable("TopLevelTestSign")
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(tg.gradients(double, x)[0]), [2.0, 2.0])
    assert tg.gradients(sign, x) == [None]
    with pytest.raises(KeyError, match="Registering two gradients with name 'MatMul'"):
        tg.no_gradient("MatMul")
    with pytest.raises(TypeError, match="a string"):
        tg.RegisterGradient(tg.matmul)
    assert not tg.control_flow_v2_enabled() and tg.disable_v2_tensorshape() is None


def test_the_example_user_op_says_what_tfs_does():
    with tg.Session() as sess:
        assert sess.run(tg.user_ops.my_fact()) == b"0! == 1"
