"""A plan's MatMul -> BiasAdd -> Relu run as one step (TF's remapper): the unfused values to the bit, fetches and
errors as without it, traced runs op by op, and ConfigProto's rewrite_options.remapping = OFF turning it off."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer import strict_device
from trainer.client.config import RewriterConfig

RNG = np.random.default_rng(3)
OFF = tg.ConfigProto(graph_options=tg.GraphOptions(rewrite_options=RewriterConfig(remapping=RewriterConfig.OFF)))


def _mlp(dtype, batch=None):
    """Two dense ReLU layers and a linear one; returns (input, logits, train op, variables)."""
    x = tg.placeholder(dtype, [batch, 6], name="x")
    h, variables = x, []
    for i, (fan_in, fan_out) in enumerate([(6, 5), (5, 4), (4, 3)]):
        w = tg.Variable(RNG.standard_normal((fan_in, fan_out)).astype(dtype), name=f"w{i}")
        b = tg.Variable(RNG.standard_normal(fan_out).astype(dtype), name=f"b{i}")
        h = tg.nn.bias_add(tg.matmul(h, w), b)
        h = tg.nn.relu(h) if i < 2 else h
        variables += [w, b]
    loss = tg.reduce_mean(tg.square(h))
    return x, h, tg.train.GradientDescentOptimizer(0.1).minimize(loss), variables


def _steps(config, dtype, device=None):
    """The logits and the variables after two training steps, in a session with `config`."""
    values = RNG.standard_normal((7, 6)).astype(dtype)
    with tg.Graph().as_default():
        tg.set_random_seed(1)
        x, logits, train, variables = _mlp(dtype)
        with tg.Session(config=config, device=device) as sess:
            sess.run(tg.global_variables_initializer())
            first = sess.run(logits, {x: values})
            for _ in range(2):
                sess.run(train, {x: values})
            return [first] + sess.run(variables)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_and_unfused_steps_give_the_same_bits(dtype):
    state = RNG.bit_generator.state
    fused = _steps(None, dtype)
    RNG.bit_generator.state = state
    unfused = _steps(OFF, dtype)
    for a, b in zip(fused, unfused):
        assert a.dtype == dtype
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_fused_dense_layer_is_numpys_matmul_bias_and_maximum(dtype):
    a, w, b = (RNG.standard_normal(s).astype(dtype) for s in [(5, 3), (3, 4), (4,)])
    with tg.Graph().as_default():
        y = tg.nn.relu(tg.nn.bias_add(tg.matmul(tg.constant(a), tg.constant(w)), tg.constant(b)))
        with tg.Session() as sess:
            plan = sess.plan([y])
            value = sess.run(y)
    assert len(plan.steps) == 1 and len(plan.op_steps) == 3  # one step runs the three ops' kernels
    np.testing.assert_array_equal(value, np.maximum(np.dot(a, w) + b, 0))


def test_a_fetched_or_shared_intermediate_is_not_fused_away():
    a, w, b = (RNG.standard_normal(s).astype(np.float32) for s in [(5, 3), (3, 4), (4,)])
    with tg.Graph().as_default():
        product = tg.matmul(tg.constant(a), tg.constant(w))
        biased = tg.nn.bias_add(product, tg.constant(b))
        y = tg.nn.relu(biased)
        with tg.Session() as sess:
            got_product, got_biased, got_y = sess.run([product, biased, y])
            shared = sess.run(tg.nn.relu(biased) + biased)  # biased has two readers: the BiasAdd keeps its buffer
    np.testing.assert_array_equal(got_product, np.dot(a, w))
    np.testing.assert_array_equal(got_biased, np.dot(a, w) + b)
    np.testing.assert_array_equal(got_y, np.maximum(got_biased, 0))
    np.testing.assert_array_equal(shared, np.maximum(got_biased, 0) + got_biased)


def test_remapping_off_runs_one_step_per_op():
    with tg.Graph().as_default():
        x, logits, train, _ = _mlp(np.float32)
        on, off = tg.Session().plan([train], [x]), tg.Session(config=OFF).plan([train], [x])
    assert len(off.steps) == len(off.op_steps) == len(on.op_steps) > len(on.steps)
    assert [op.type for *_, op in on.op_steps] == [op.type for *_, op in off.steps]
    assert OFF.graph_options.rewrite_options.remapping == RewriterConfig.OFF == 2


@pytest.mark.parametrize("culprit,a_shape,b_shape", [("MatMul", (2, 3), (4,)), ("BiasAdd", (2, 6), (4,))])
def test_an_error_in_a_fused_step_names_the_op_that_failed(culprit, a_shape, b_shape):
    with tg.Graph().as_default():
        a, b = tg.placeholder(tg.float32, [None, None]), tg.placeholder(tg.float32, [None])
        w = tg.constant(np.ones((6, 5), np.float32))
        y = tg.nn.relu(tg.nn.bias_add(tg.matmul(a, w, name="product"), b, name="biased"), name="activated")
        with tg.Session() as sess:
            with pytest.raises(tg.errors.InvalidArgumentError) as err:
                sess.run(y, {a: np.ones(a_shape, np.float32), b: np.ones(b_shape, np.float32)})
    names = {"MatMul": "product", "BiasAdd": "biased"}
    assert err.value.op.name == names[culprit] and f"{culprit} op {names[culprit]!r} failed" in str(err.value)


def test_a_traced_run_times_each_fused_op_on_its_own():
    with tg.Graph().as_default():
        x, logits, train, _ = _mlp(np.float32)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            metadata = tg.RunMetadata()
            sess.run(train, {x: np.ones((2, 6), np.float32)},
                     options=tg.RunOptions(trace_level=tg.RunOptions.FULL_TRACE), run_metadata=metadata)
            plan = sess.plan([train], [x])
    traced = [n.node_name for d in metadata.step_stats.dev_stats for n in d.node_stats]
    for name in ("MatMul", "BiasAdd", "Relu", "MatMul_1", "BiasAdd_1", "Relu_1", "MatMul_2", "BiasAdd_2"):
        assert name in traced
    assert len(plan.steps) < len(plan.op_steps)


def test_fused_steps_on_the_strict_device_equal_the_host_ones():
    state = RNG.bit_generator.state
    host = _steps(None, np.float64)
    RNG.bit_generator.state = state
    device = _steps(None, np.float64, device=strict_device.use())
    for a, b in zip(host, device):
        np.testing.assert_array_equal(a, b)


def _convnet_steps(config, dtype, device=None, fetch_mask=False):
    """Conv -> ReLU -> 2x2 max pool twice, a dense layer: its output and variables after two training steps, and
    the plan's op types per step; `fetch_mask` fetches the first ReLU's gradient on the pooled values too."""
    values = np.maximum(RNG.standard_normal((3, 8, 8, 2)), 0).astype(dtype)  # zeros: windows of ties
    with tg.Graph().as_default():
        x = tg.placeholder(dtype, [None, 8, 8, 2], name="x")
        h, variables = x, []
        for i, channels in enumerate((4, 6)):
            w = tg.Variable(RNG.standard_normal((3, 3, h.shape[3], channels)).astype(dtype), name=f"w{i}")
            h = tg.nn.max_pool(tg.nn.relu(tg.nn.conv2d(h, w, strides=1, padding="SAME")), 2, 2, "VALID")
            variables.append(w)
        dense = tg.Variable(RNG.standard_normal((2 * 2 * 6, 3)).astype(dtype), name="dense")
        y = tg.matmul(tg.reshape(h, [-1, 2 * 2 * 6]), dense)
        train = tg.train.GradientDescentOptimizer(0.1).minimize(tg.reduce_mean(tg.square(y)))
        fetches = [train] + ([tg.get_default_graph().get_tensor_by_name("gradients/Relu_grad/ReluGrad:0")]
                             if fetch_mask else [])
        with tg.Session(config=config, device=device) as sess:
            sess.run(tg.global_variables_initializer())
            masks = [sess.run(fetches, {x: values})[1:] for _ in range(2)]
            plan = sess.plan(fetches, [x])
            return sess.run([y] + variables + [dense], {x: values}) + masks[1], [op.type for *_, op in plan.steps]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relus_gradient_folds_into_the_max_pool_gradient_with_the_unfused_bits(dtype):
    state = RNG.bit_generator.state
    fused, fused_types = _convnet_steps(None, dtype)
    RNG.bit_generator.state = state
    unfused, unfused_types = _convnet_steps(OFF, dtype)
    for a, b in zip(fused, unfused):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(np.signbit(a), np.signbit(b))
    assert unfused_types.count("ReluGrad") == 2 and fused_types.count("ReluGrad") == 0
    assert fused_types.count("MaxPoolGrad") == unfused_types.count("MaxPoolGrad") == 2


def test_a_fetched_relu_gradient_is_not_folded_away():
    state = RNG.bit_generator.state
    fused, fused_types = _convnet_steps(None, np.float32, fetch_mask=True)
    RNG.bit_generator.state = state
    unfused, _ = _convnet_steps(OFF, np.float32, fetch_mask=True)
    assert fused_types.count("ReluGrad") == 1  # the second pool's pair still folds
    for a, b in zip(fused, unfused):
        np.testing.assert_array_equal(a, b)


def test_a_folded_step_on_the_strict_device_equals_the_host_one():
    state = RNG.bit_generator.state
    host, _ = _convnet_steps(None, np.float64)
    RNG.bit_generator.state = state
    device, types = _convnet_steps(None, np.float64, device=strict_device.use())
    assert types.count("ReluGrad") == 0
    # the host convolves few-channel images from columns gathered tap by tap and 6 channels by row windows, a device
    # by im2col: the same products summed in another order (kernels/conv.py)
    for a, b in zip(host, device):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.abs(b).max())


def test_a_runtime_swapping_a_fused_updates_kernel_gets_the_updates_own_inputs():
    """Plan.with_kernels (how the parameter-server runtime ships an update): where the op of a fused step gets another
    kernel, the fused step's ops run one by one, so the swapped update is called with (lr, its gradient)."""
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 256], name="x")
        w = tg.Variable(RNG.standard_normal((256, 512)).astype(np.float32), name="w")  # large: the fold applies
        train = tg.train.GradientDescentOptimizer(0.1).minimize(tg.reduce_sum(tg.square(tg.matmul(x, w))))
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            plan = sess.plan([train], [x])
            assert [op.type for *_, op in plan.steps].count("MatMul") == 1  # the gradient's runs in the update
            calls = []

            def kernel_for(op, kernel):
                if op.type != "ApplyGradientDescent":
                    return kernel
                return lambda *values: calls.append([np.shape(v) for v in values])
            plan.with_kernels(kernel_for).execute([RNG.standard_normal((8, 256)).astype(np.float32)])
    assert calls == [[(), (256, 512)]]


def _accumulating(plan):
    """The AddN steps of `plan` that take their sum from the last product's step (accumulate_products), and the
    MatMul steps that add into it."""
    addn = [ins for _, ins, _, op in plan.steps if op.type == "AddN" and len(ins) == 1 and len(op.inputs) > 1]
    adding = [ins for _, ins, _, op in plan.steps if op.type == "MatMul" and len(ins) == 3]
    return addn, adding


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("cell", ["gru", "basic_rnn", "lstm_stepwise"])
def test_an_unrolled_rnns_weight_gradient_adds_each_product_as_it_is_made(cell, dtype):
    """dynamic_rnn over known steps: the weights' gradient is an AddN of one MatMul per step; each product goes into
    the first one's buffer (BLAS, beta = 1) as it is made, with AddN's bits. 128 units: sums of at least 16K values."""
    x = RNG.standard_normal((5, 7, 3)).astype(dtype)

    def gradients(config):
        with tg.Graph().as_default():
            tg.set_random_seed(2)
            inputs = tg.placeholder(dtype, x.shape)
            make = {"gru": lambda: tg.nn.rnn_cell.GRUCell(128), "basic_rnn": lambda: tg.nn.rnn_cell.BasicRNNCell(128),
                    "lstm_stepwise": lambda: tg.nn.rnn_cell.DeviceWrapper(tg.nn.rnn_cell.BasicLSTMCell(128),
                                                                          "/cpu:0")}
            out, _ = tg.nn.dynamic_rnn(make[cell](), inputs, dtype=dtype)
            grads = tg.gradients(tg.reduce_sum(tg.sin(out)), tg.trainable_variables())
            with tg.Session(config=config) as sess:
                sess.run(tg.global_variables_initializer())
                return sess.run(grads, {inputs: x}), sess.plan(grads, [inputs])

    (fused, plan), (unfused, plain) = gradients(None), gradients(OFF)
    addn, adding = _accumulating(plan)
    assert len(addn) == {"gru": 2}.get(cell, 1) and len(adding) == len(addn) * (x.shape[1] - 1)
    assert _accumulating(plain) == ([], [])
    for a, b in zip(fused, unfused):
        np.testing.assert_array_equal(a, b)


def test_products_summed_out_of_order_read_elsewhere_or_small_stay_an_addn():
    a, b, c = (RNG.standard_normal((128, 128)).astype(np.float32) for _ in range(3))
    with tg.Graph().as_default():
        first, second = tg.matmul(tg.constant(a), tg.constant(b)), tg.matmul(tg.constant(b), tg.constant(c))
        reversed_sum = tg.add_n([second, first])  # made first, second: the sum's order is not theirs
        in_order = tg.add_n([first, second])
        small = tg.add_n([first[:64], second[:64]])  # not products: sliced
        tiny = tg.add_n([tg.matmul(tg.constant(a[:8]), tg.constant(b)), tg.matmul(tg.constant(b[:8]), tg.constant(c))])
        with tg.Session() as sess:
            assert _accumulating(sess.plan([reversed_sum])) == ([], [])
            assert _accumulating(sess.plan([in_order, first])) == ([], [])  # a product fetched: kept
            assert _accumulating(sess.plan([small])) == _accumulating(sess.plan([tiny])) == ([], [])  # [8, 128]
            assert len(_accumulating(sess.plan([in_order]))[0]) == 1
            got = sess.run([reversed_sum, in_order])
    np.testing.assert_array_equal(got[0], np.dot(b, c) + np.dot(a, b))
    np.testing.assert_array_equal(got[1], np.dot(a, b) + np.dot(b, c))


def test_an_error_in_a_product_added_into_the_sum_names_its_matmul():
    with tg.Graph().as_default():
        a, b = tg.placeholder(tg.float32, [128, None]), tg.placeholder(tg.float32, [128, None])
        w = tg.constant(np.ones((3, 128), np.float32))
        total = tg.add_n([tg.matmul(a, w, name="first"), tg.matmul(b, w, name="second")])
        with tg.Session() as sess:
            assert len(_accumulating(sess.plan([total], [a, b]))[1]) == 1
            with pytest.raises(tg.errors.InvalidArgumentError) as err:
                sess.run(total, {a: np.ones((128, 3), np.float32), b: np.ones((128, 5), np.float32)})
    assert err.value.op.name == "second" and "MatMul op 'second' failed" in str(err.value)
