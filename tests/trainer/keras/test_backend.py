"""tf.keras.backend: one session per graph with variables initialized on first use, the learning phase, values
read and written, and the math against numpy."""
import numpy as np
import pytest

import trainer as tg
from trainer.keras import backend as K


def test_the_session_initializes_new_variables_once_and_keeps_assigned_values():
    v = K.variable([1.0, 2.0], name="v")
    assert K.get_session() is K.get_session()
    np.testing.assert_array_equal(K.get_value(v), [1.0, 2.0])
    K.set_value(v, [5.0, 6.0])
    w = K.variable(3.0)  # a later variable is initialized without re-initializing v
    assert K.eval(w) == 3.0
    np.testing.assert_array_equal(K.get_value(v), [5.0, 6.0])
    assert K.batch_get_value([v, w])[1] == 3.0


def test_manual_variable_initialization_leaves_variables_to_the_caller():
    K.manual_variable_initialization(True)
    try:
        v = K.variable(1.0)
        with pytest.raises(tg.errors.FailedPreconditionError):
            K.get_session().run(v)
        K.get_session().run(v.initializer)
        assert K.get_value(v) == 1.0
    finally:
        K.manual_variable_initialization(False)


def test_an_entered_session_is_the_one_keras_uses():
    v = K.variable(4.0)
    with tg.Session() as session:
        assert K.get_session() is session
        assert session.run(v) == 4.0


def test_a_new_default_graph_gets_a_new_session_as_in_keras():
    first = K.get_session()
    with tg.Graph().as_default() as graph:
        second = K.get_session()
        assert second is not first and second.graph is graph and K.get_session() is second
        assert K.learning_phase().graph is graph


def test_the_learning_phase_is_false_unless_fed():
    phase = K.learning_phase()
    assert phase is K.learning_phase() and phase.dtype == np.bool_
    out = K.in_train_phase(K.constant(1.0), K.constant(0.0))
    assert K.eval(out) == 0.0
    assert K.get_session().run(out, {phase: True}) == 1.0
    K.set_learning_phase(1)
    assert K.eval(K.in_train_phase(K.constant(1.0), K.constant(0.0))) == 1.0


def test_clear_session_starts_a_new_graph():
    graph = tg.get_default_graph()
    K.variable(1.0)
    K.clear_session()
    assert tg.get_default_graph() is not graph and tg.global_variables() == []


def test_clear_session_forgets_a_session_given_to_set_session_but_leaves_it_open():
    given = tg.Session()  # as tf.test's cached session, which the test goes on using after clear_session
    K.set_session(given)
    K.clear_session()
    assert K.get_session() is not given
    with given.graph.as_default():
        assert given.run(tg.constant(2.0)) == 2.0


X = np.array([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]], dtype=np.float32)
Y = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]], dtype=np.float32)
MATH = [
    ("sum", lambda x: K.sum(x, axis=1), lambda x: x.sum(axis=1)),
    ("mean keepdims", lambda x: K.mean(x, axis=0, keepdims=True), lambda x: x.mean(axis=0, keepdims=True)),
    ("max", lambda x: K.max(x), lambda x: x.max()),
    ("min", lambda x: K.min(x, axis=-1), lambda x: x.min(axis=-1)),
    ("square", K.square, np.square),
    ("sqrt clips at zero", K.sqrt, lambda x: np.sqrt(np.maximum(x, 0))),
    ("exp", K.exp, np.exp),
    ("log of abs", lambda x: K.log(K.abs(x)), lambda x: np.log(np.abs(x))),
    ("relu", K.relu, lambda x: np.maximum(x, 0)),
    ("leaky relu capped", lambda x: K.relu(x, alpha=0.1, max_value=1.0),
     lambda x: np.where(x > 0, np.minimum(x, 1.0), 0.1 * x)),
    ("sigmoid", K.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    ("hard sigmoid", K.hard_sigmoid, lambda x: np.clip(0.2 * x + 0.5, 0, 1)),
    ("softmax", K.softmax, lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
    ("elu", K.elu, lambda x: np.where(x > 0, x, np.exp(x) - 1)),
    ("clip", lambda x: K.clip(x, -0.5, 1.0), lambda x: np.clip(x, -0.5, 1.0)),
    ("concatenate", lambda x: K.concatenate([x, x]), lambda x: np.concatenate([x, x], -1)),
    ("reshape", lambda x: K.reshape(x, (3, 2)), lambda x: x.reshape(3, 2)),
    ("expand_dims", lambda x: K.expand_dims(x, 1), lambda x: x[:, None]),
    ("permute", lambda x: K.permute_dimensions(x, (1, 0)), lambda x: x.T),
    ("cast", lambda x: K.cast(x, "int32"), lambda x: x.astype(np.int32)),
    ("dot", lambda x: K.dot(x, K.constant(Y)), lambda x: x @ Y),
    ("batch_flatten", lambda x: K.batch_flatten(K.reshape(x, (2, 3, 1))), lambda x: x),
    ("repeat", lambda x: K.repeat(x, 2), lambda x: np.stack([x, x], 1)),
    ("var", lambda x: K.var(x, axis=1), lambda x: x.var(axis=1)),
    ("tile", lambda x: K.tile(x, (2, 1)), lambda x: np.tile(x, (2, 1))),
    ("gather", lambda x: K.gather(x, [1, 1, 0]), lambda x: x[[1, 1, 0]]),
    ("cumsum", lambda x: K.cumsum(x, axis=1), lambda x: x.cumsum(1)),
    ("bias_add", lambda x: K.bias_add(x, K.constant([1.0, 2.0, 3.0])), lambda x: x + [1.0, 2.0, 3.0]),
    ("switch", lambda x: K.switch(K.constant(True), x, -x), lambda x: x),
    ("arange", lambda x: K.arange(3) + K.cast(K.sum(x) * 0, "int32"), lambda x: np.arange(3)),
]


@pytest.mark.parametrize("name, ours, reference", MATH, ids=[m[0] for m in MATH])
def test_math_matches_numpy(name, ours, reference):
    np.testing.assert_allclose(K.eval(ours(K.constant(X))), reference(X), rtol=1e-6, atol=1e-6)


def test_crossentropies_are_keras_closed_forms():
    probs = np.array([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]], dtype=np.float32)
    labels = np.array([1, 0])
    onehot = np.eye(3, dtype=np.float32)[labels]
    expected = -np.log(probs[np.arange(2), labels])
    np.testing.assert_allclose(K.eval(K.categorical_crossentropy(K.constant(onehot), K.constant(probs))), expected,
                               rtol=1e-6)
    np.testing.assert_allclose(K.eval(K.sparse_categorical_crossentropy(K.constant(labels), K.constant(probs))),
                               expected, rtol=1e-5)
    # probabilities are clipped to [eps, 1 - eps], and eps is added inside the logs, as TF 1.15's Keras does
    p, t = np.array([0.9, 0.0, 1.0], np.float32), np.array([1.0, 0.0, 0.0], np.float32)
    q, eps = np.clip(p, np.float32(1e-7), np.float32(1 - 1e-7)), np.float32(1e-7)
    np.testing.assert_allclose(K.eval(K.binary_crossentropy(K.constant(t), K.constant(p))),
                               -(t * np.log(q + eps) + (1 - t) * np.log(1 - q + eps)), rtol=1e-4, atol=1e-7)
    logits = np.log(probs)
    np.testing.assert_allclose(K.eval(K.categorical_crossentropy(K.constant(onehot), K.constant(logits),
                                                                 from_logits=True)), expected, rtol=1e-5)


def test_function_feeds_inputs_and_runs_updates_after_the_outputs():
    x = K.placeholder(shape=(None, 2))
    total = K.variable(0.0)
    f = K.function([x], [K.sum(x) + total], updates=[K.update_add(total, K.sum(x))])
    assert f([np.ones((2, 2))])[0] == 4.0  # the outputs see the value before the update
    assert f([np.ones((1, 2))])[0] == 6.0
    assert K.get_value(total) == 6.0
    with pytest.raises(ValueError, match="takes 1 inputs, got 2"):
        f([np.ones((1, 2)), np.ones((1, 2))])


def test_shapes_dtypes_and_defaults():
    p = K.placeholder(shape=(None, 4), dtype="int32")
    assert K.int_shape(p) == (None, 4) and K.ndim(p) == 2 and K.dtype(p) == "int32" and K.is_placeholder(p)
    assert K.floatx() == "float32" and K.epsilon() == 1e-7 and K.image_data_format() == "channels_last"
    assert K.int_shape(K.variable(np.zeros((3, 5)))) == (3, 5) and K.count_params(K.variable(np.zeros((3, 5)))) == 15


def test_convolution_pooling_and_dropout_functions():
    x = np.arange(2 * 4 * 4 * 1, dtype=np.float32).reshape(2, 4, 4, 1)
    kernel = np.ones((2, 2, 1, 1), np.float32)
    summed = x.reshape(2, 2, 2, 2, 2, 1).sum(axis=(2, 4))
    np.testing.assert_allclose(K.eval(K.conv2d(K.constant(x), K.constant(kernel), strides=(2, 2))), summed)
    np.testing.assert_allclose(K.eval(K.pool2d(K.constant(x), (2, 2), strides=(2, 2), pool_mode="avg")), summed / 4)
    np.testing.assert_allclose(K.eval(K.pool2d(K.constant(x), (2, 2), strides=(2, 2))),
                               x.reshape(2, 2, 2, 2, 2, 1).max(axis=(2, 4)))
    seq = np.ones((1, 5, 2), np.float32)
    assert K.eval(K.conv1d(K.constant(seq), K.constant(np.ones((3, 2, 1), np.float32)))).tolist() == [[[6.0]] * 3]
    dropped = K.eval(K.dropout(K.constant(np.ones((100, 100), np.float32)), 0.5, seed=3))
    assert set(np.unique(dropped)) == {0.0, 2.0}
    with pytest.raises(ValueError, match="Invalid pool_mode: 'min'"):
        K.pool2d(K.constant(x), (2, 2), pool_mode="min")


def test_rnn_runs_a_step_function_over_known_and_unknown_time():
    """K.rnn: a running sum over time, masked steps keeping the sum, go_backwards and unroll."""
    x = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    mask = np.array([[True, False, True], [True, True, False]])

    def step(x_t, states):
        total = states[0] + x_t
        return total * 10.0, [total]
    for shape, unroll in [((2, 3, 2), True), ((None, None, 2), False)]:
        inputs, m = K.placeholder(shape=shape), K.placeholder(shape=shape[:2], dtype="bool")
        zeros = K.zeros_like(inputs[:, 0])
        last, outputs, (total,) = K.rnn(step, inputs, [zeros], mask=m, unroll=unroll)
        back_last, _, _ = K.rnn(step, inputs, [zeros], go_backwards=True, unroll=unroll)
        got = K.get_session().run([last, outputs, total, back_last], {inputs: x, m: mask})
        sums = np.cumsum(x * mask[..., None], axis=1)
        np.testing.assert_allclose(got[2], sums[:, -1])
        np.testing.assert_allclose(got[1][0], [sums[0, 0] * 10, sums[0, 0] * 10, sums[0, 2] * 10])
        np.testing.assert_allclose(got[0], [sums[0, 2] * 10, sums[1, 1] * 10])
        np.testing.assert_allclose(got[3], x.sum(1) * 10)


def test_get_session_takes_tf_1_15s_op_input_list():
    with tg.Graph().as_default():
        x = K.constant([1.0, 2.0])
        assert K.get_session(op_input_list=(x,)) is K.get_session()
        np.testing.assert_array_equal(K.get_session(op_input_list=()).run(x), [1.0, 2.0])
