"""tg.contrib: contrib's names for core objects are those objects, the block RNN cells against TF1's documented
equations in numpy, the framework helpers, the projector config parsed back by protobuf, and the missing
libraries' errors. (The contrib layers are in test_contrib_layers.py.)"""
import numpy as np
import pytest

import trainer as tg
from trainer.unsupported import NotInRingflow

RNG = np.random.default_rng(7)


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def test_contrib_rnn_names_are_the_core_objects():
    rnn, core = tg.contrib.rnn, tg.nn.rnn_cell
    for name in ("BasicLSTMCell", "LSTMCell", "GRUCell", "BasicRNNCell", "MultiRNNCell", "DropoutWrapper",
                 "ResidualWrapper", "LSTMStateTuple", "RNNCell", "DeviceWrapper"):
        assert getattr(rnn, name) is getattr(core, name), name
    assert rnn.static_rnn is tg.nn.static_rnn and rnn.static_bidirectional_rnn is tg.nn.static_bidirectional_rnn
    with pytest.raises(AttributeError, match=r"tf\.contrib\.rnn\.AttentionCellWrapper is not available"):
        rnn.AttentionCellWrapper


def test_other_contrib_names_are_the_same_objects():
    contrib = tg.contrib
    assert contrib.framework.get_or_create_global_step is tg.train.get_or_create_global_step
    assert contrib.framework.get_global_step is tg.train.get_global_step
    for name in ("fully_connected", "conv2d", "max_pool2d", "avg_pool2d", "flatten", "dropout", "batch_norm",
                 "l2_regularizer", "xavier_initializer"):
        assert getattr(contrib.slim, name) is getattr(contrib.layers, name), name
    assert contrib.slim.arg_scope is contrib.framework.arg_scope
    assert contrib.layers.conv2d is contrib.layers.convolution2d
    assert contrib.layers.xavier_initializer_conv2d is contrib.layers.xavier_initializer
    for name in ("binary_classification_head", "multi_class_head", "regression_head", "DNNEstimator",
                 "LinearEstimator", "DNNLinearCombinedEstimator"):
        assert getattr(contrib.estimator, name) is getattr(tg.estimator, name), name
    with pytest.raises(NotInRingflow, match="tf.contrib.estimator.multi_label_head is not available in ringflow"):
        contrib.estimator.multi_label_head


def _lstm_reference(x, c, h, kernel, bias, forget_bias=1.0, peepholes=None, clip=None):
    """TF1's LSTMBlockCell equations: [i, ci, f, o] = [x, h] W + b; peepholes on c_prev (i, f) and on c (o)."""
    i, ci, f, o = np.split(np.concatenate([x, h], 1) @ kernel + bias, 4, axis=1)
    f = f + forget_bias
    if peepholes is not None:
        wci, wcf, wco = peepholes
        i, f = i + wci * c, f + wcf * c
    cs = _sigmoid(i) * np.tanh(ci) + _sigmoid(f) * c
    if clip is not None:
        cs = np.clip(cs, -clip, clip)
    if peepholes is not None:
        o = o + wco * cs
    return cs, _sigmoid(o) * np.tanh(cs)


@pytest.mark.parametrize("peephole,clip", [(False, None), (True, 0.3)])
def test_lstm_block_cell_has_lstm_cell_variables_and_tf1_math(peephole, clip):
    n, depth, batch, steps = 3, 2, 4, 3
    xs = RNG.standard_normal((steps, batch, depth))
    with tg.Graph().as_default():
        inputs = [tg.placeholder(tg.float64, [batch, depth]) for _ in range(steps)]
        cell = tg.contrib.rnn.LSTMBlockCell(n, forget_bias=0.5, cell_clip=clip, use_peephole=peephole)
        outputs, state = tg.contrib.rnn.static_rnn(cell, inputs, dtype=tg.float64)
        names = [v.op.name for v in tg.global_variables()]
        expected = ["rnn/lstm_cell/kernel", "rnn/lstm_cell/bias"]
        assert names == expected + (["rnn/lstm_cell/w_f_diag", "rnn/lstm_cell/w_i_diag", "rnn/lstm_cell/w_o_diag"]
                                    if peephole else [])
        values = {v.op.name: RNG.standard_normal(v.shape.as_list()) for v in tg.global_variables()}
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            for v in tg.global_variables():
                v.load(values[v.op.name])
            got, (c_got, h_got) = sess.run([outputs, state], dict(zip(inputs, xs)))
    peepholes = tuple(values[f"rnn/lstm_cell/w_{g}_diag"] for g in "ifo") if peephole else None
    c, h = np.zeros((batch, n)), np.zeros((batch, n))
    for t in range(steps):
        c, h = _lstm_reference(xs[t], c, h, values["rnn/lstm_cell/kernel"], values["rnn/lstm_cell/bias"], 0.5,
                               peepholes, clip)
        np.testing.assert_allclose(got[t], h, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(c_got, c, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(h_got, h, rtol=1e-12, atol=1e-12)
    if clip is not None:
        assert np.abs(c_got).max() <= clip + 1e-12


def _gru_reference(x, h, gate_kernel, gate_bias, candidate_kernel, candidate_bias):
    """GRUBlockCell's documented equations: [r, u] = sigmoid([x, h] W_ru + b_ru), c = tanh([x, r h] W_c + b_c)."""
    r, u = np.split(_sigmoid(np.concatenate([x, h], 1) @ gate_kernel + gate_bias), 2, axis=1)
    c = np.tanh(np.concatenate([x, r * h], 1) @ candidate_kernel + candidate_bias)
    return u * h + (1 - u) * c


@pytest.mark.parametrize("cls,names", [
    ("GRUBlockCell", ("w_c", "b_ru", "w_ru", "b_c")),  # TF1's names: w_c is the [d+n, 2n] gate kernel
    ("GRUBlockCellV2", ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias")),
])
def test_gru_block_cells_variable_names_initial_biases_and_math(cls, names):
    n, depth, batch = 3, 2, 4
    x, h0 = RNG.standard_normal((batch, depth)), RNG.standard_normal((batch, n))
    with tg.Graph().as_default():
        cell = getattr(tg.contrib.rnn, cls)(num_units=n)
        inputs, state = tg.placeholder(tg.float64, [batch, depth]), tg.placeholder(tg.float64, [batch, n])
        out, new_state = cell(inputs, state)
        variables = {v.op.name: v for v in tg.global_variables()}
        assert list(variables) == [f"gru_cell/{name}" for name in names]
        gate_kernel, gate_bias, cand_kernel, cand_bias = (variables[f"gru_cell/{name}"] for name in names)
        assert gate_kernel.shape == (depth + n, 2 * n) and cand_kernel.shape == (depth + n, n)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(gate_bias), 1.0)
            np.testing.assert_array_equal(sess.run(cand_bias), 0.0)
            weights = [RNG.standard_normal(v.shape.as_list()) for v in (gate_kernel, gate_bias, cand_kernel,
                                                                          cand_bias)]
            for v, w in zip((gate_kernel, gate_bias, cand_kernel, cand_bias), weights):
                v.load(w)
            got, got_state = sess.run([out, new_state], {inputs: x, state: h0})
    np.testing.assert_allclose(got, _gru_reference(x, h0, *weights), rtol=1e-12)
    np.testing.assert_array_equal(got, got_state)
    with pytest.raises(ValueError, match="Exactly one of num_units or cell_size"):
        tg.contrib.rnn.GRUBlockCell(num_units=3, cell_size=3)


def test_stack_bidirectional_rnn_feeds_each_layer_the_concatenated_outputs():
    steps, batch, depth, n = 3, 2, 4, 5
    xs = RNG.standard_normal((steps, batch, depth))
    with tg.Graph().as_default():
        inputs = [tg.placeholder(tg.float64, [batch, depth]) for _ in range(steps)]
        cells_fw = [tg.contrib.rnn.BasicRNNCell(n) for _ in range(2)]
        cells_bw = [tg.contrib.rnn.BasicRNNCell(n) for _ in range(2)]
        outputs, states_fw, states_bw = tg.contrib.rnn.stack_bidirectional_rnn(cells_fw, cells_bw, inputs,
                                                                               dtype=tg.float64)
        kernels = {v.op.name: v for v in tg.global_variables() if v.op.name.endswith("kernel")}
        assert sorted(kernels) == [f"stack_bidirectional_rnn/cell_{i}/{d}/basic_rnn_cell/kernel"
                                   for i in range(2) for d in ("bw", "fw")]
        # layer 1 reads layer 0's forward and backward outputs side by side
        assert kernels["stack_bidirectional_rnn/cell_1/fw/basic_rnn_cell/kernel"].shape == (2 * n + n, n)
        assert len(outputs) == steps and outputs[0].shape == (batch, 2 * n) and len(states_fw) == 2
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            weights = {name: sess.run(v) for name, v in kernels.items()}
            got = sess.run(outputs, dict(zip(inputs, xs)))

    def run(layer_inputs, kernel, reverse):
        h, out = np.zeros((batch, n)), [None] * steps
        for t in (reversed(range(steps)) if reverse else range(steps)):
            h = out[t] = np.tanh(np.concatenate([layer_inputs[t], h], 1) @ kernel)  # biases start at zero
        return out
    layer = list(xs)
    for i in range(2):
        k = lambda d: weights[f"stack_bidirectional_rnn/cell_{i}/{d}/basic_rnn_cell/kernel"]  # noqa: E731
        fw, bw = run(layer, k("fw"), False), run(layer, k("bw"), True)
        layer = [np.concatenate([f, b], 1) for f, b in zip(fw, bw)]
    np.testing.assert_allclose(np.stack(got), np.stack(layer), rtol=1e-12)
    with pytest.raises(ValueError, match="same depth"):
        tg.contrib.rnn.stack_bidirectional_rnn(cells_fw, cells_bw[:1], inputs)


def test_arg_scope_sets_defaults_explicit_arguments_win_and_scopes_nest():
    framework, layers = tg.contrib.framework, tg.contrib.layers
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 4])
        with framework.arg_scope([layers.fully_connected], activation_fn=None, scope="outer") as scope:
            with framework.arg_scope([layers.fully_connected], scope="inner"):
                inner = layers.fully_connected(x, 2)
            outer = layers.fully_connected(x, 2, scope="explicit", activation_fn=tg.nn.relu)
        assert inner.op.type == "BiasAdd" and outer.op.type == "Relu"
        assert [v.op.name for v in tg.global_variables()] == ["inner/weights", "inner/biases", "explicit/weights",
                                                              "explicit/biases"]
        with framework.arg_scope(scope):  # re-entering a captured scope
            assert framework.current_arg_scope() == scope
        assert layers.fully_connected in [layers.fully_connected] and framework.has_arg_scope(layers.fully_connected)
        assert "activation_fn" in framework.arg_scoped_arguments(layers.fully_connected)
        with pytest.raises(ValueError, match="not decorated with @add_arg_scope"):
            with framework.arg_scope([tg.layers.dense], units=3):
                pass

    @framework.add_arg_scope
    def scaled(value, factor=1):
        return value * factor
    with framework.arg_scope([scaled], factor=3):
        assert scaled(2) == 6 and scaled(2, factor=5) == 10
    assert scaled(2) == 2 and scaled.__name__ == "scaled"


def test_framework_variable_queries():
    framework = tg.contrib.framework
    with tg.Graph().as_default():
        with tg.variable_scope("net"):
            w = framework.model_variable("weights", shape=[2, 3])
            b = framework.variable("biases", shape=[3], collections=[tg.GraphKeys.GLOBAL_VARIABLES, "extra"])
        with tg.variable_scope("head"):
            w2 = framework.model_variable("weights", shape=[3, 1], trainable=False)
        assert framework.get_variables("net") == [w, b]
        assert framework.get_variables(suffix="weights") == [w, w2]
        assert framework.get_variables("net", "biases") == [b]
        assert framework.get_model_variables() == [w, w2] and tg.model_variables() == [w, w2]
        assert framework.get_trainable_variables() == [w, b]
        assert tg.get_collection("extra") == [b]
        assert framework.get_variables_to_restore(exclude=["head"]) == [w, b]
        assert framework.get_variables_to_restore(include=["head"]) == [w2]
        assert framework.get_unique_variable("net/weights") is w
        with pytest.raises(ValueError, match="Couldn't find variable 'nope'"):
            framework.get_unique_variable("nope")


def _projector_message_class():
    """TensorBoard's projector_config.proto, declared here from its field names and numbers, as protobuf builds
    it: an independent reader of the text ringflow writes."""
    descriptor_pb2 = pytest.importorskip("google.protobuf.descriptor_pb2")
    from google.protobuf import descriptor_pool, message_factory
    field = descriptor_pb2.FieldDescriptorProto
    f = descriptor_pb2.FileDescriptorProto(name="ringflow_test_projector.proto", package="rftest", syntax="proto3")

    def message(name, fields):
        m = f.message_type.add(name=name)
        for number, (fname, kind, repeated, type_name) in enumerate(fields, start=1):
            m.field.add(name=fname, number=number, type=kind, type_name=type_name,
                        label=field.LABEL_REPEATED if repeated else field.LABEL_OPTIONAL)
    s, u, msg = field.TYPE_STRING, field.TYPE_UINT32, field.TYPE_MESSAGE
    message("SpriteMetadata", [("image_path", s, False, None), ("single_image_dim", u, True, None)])
    message("EmbeddingInfo", [("tensor_name", s, False, None), ("metadata_path", s, False, None),
                              ("bookmarks_path", s, False, None), ("tensor_shape", u, True, None),
                              ("sprite", msg, False, ".rftest.SpriteMetadata"), ("tensor_path", s, False, None)])
    message("ProjectorConfig", [("model_checkpoint_path", s, False, None),
                                ("embeddings", msg, True, ".rftest.EmbeddingInfo"),
                                ("model_checkpoint_dir", s, False, None)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("rftest.ProjectorConfig"))


def test_projector_config_is_written_as_tensorboard_reads_it(tmp_path):
    text_format = pytest.importorskip("google.protobuf.text_format")
    projector = tg.contrib.tensorboard.plugins.projector
    config = projector.ProjectorConfig(model_checkpoint_dir="ckpt")
    first = config.embeddings.add()
    first.tensor_name = "embedding/word_vectors"
    first.metadata_path = 'labels "quoted" \\ é.tsv'
    first.sprite.image_path = "sprite.png"
    first.sprite.single_image_dim.extend([28, 28])
    second = config.embeddings.add(tensor_name="other", tensor_shape=[10, 3])
    second.tensor_path = "values.tsv"
    with pytest.raises(AttributeError, match="no field 'tensor'"):
        first.tensor = "x"
    writer = tg.summary.FileWriter(str(tmp_path))
    projector.visualize_embeddings(writer, config)
    writer.close()
    text = (tmp_path / "projector_config.pbtxt").read_text()
    parsed = text_format.Parse(text, _projector_message_class()())
    assert parsed.model_checkpoint_dir == "ckpt" and parsed.model_checkpoint_path == ""
    assert len(parsed.embeddings) == 2
    one, two = parsed.embeddings
    assert one.tensor_name == "embedding/word_vectors" and one.metadata_path == 'labels "quoted" \\ é.tsv'
    assert one.sprite.image_path == "sprite.png" and list(one.sprite.single_image_dim) == [28, 28]
    assert two.tensor_name == "other" and list(two.tensor_shape) == [10, 3] and two.tensor_path == "values.tsv"
    assert not two.HasField("sprite")
    assert text == text_format.MessageToString(parsed, as_utf8=False)  # as TF1-era protobuf prints it


def test_contrib_libraries_ringflow_lacks_say_so():
    for name, words in (("legacy_seq2seq", "legacy seq2seq"), ("distributions", "probability"),
                        ("tensor_forest", "forest"), ("crf", "random fields"), ("opt", "tf.train")):
        with pytest.raises(NotInRingflow, match=rf"tf\.contrib\.{name} is not available in ringflow .*{words}"):
            getattr(tg.contrib, name)
        assert not hasattr(tg.contrib, name)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_library'"):
        tg.contrib.no_such_library
    with pytest.raises(NotImplementedError, match="numpy"):
        tg.contrib.learn.datasets.make_dataset
    with pytest.raises(AttributeError, match="tf.estimator.DNNLinearCombinedClassifier"):
        tg.contrib.learn.DNNLinearCombinedClassifier
    with pytest.raises(AttributeError, match="model zoo"):
        tg.contrib.slim.nets
