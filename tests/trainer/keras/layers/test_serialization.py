"""Layers' configs: get_config/from_config round trips for every layer class, and Lambda layers serialized as
Keras serializes them (a Python function's marshalled bytecode, its closure and defaults; functions by name through
custom_objects; `output_shape`, `mask`, `arguments`), including a config written by graph-mode tf.keras
(tests/trainer/keras/fixtures/record_keras_lambda.py)."""
import codecs
import json
import marshal
import sys
from pathlib import Path

import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

FIXTURE = json.loads((Path(__file__).parent.parent / "fixtures" / "keras_lambda.json").read_text())


@pytest.mark.skipif(list(sys.version_info[:2]) != FIXTURE["python"],
                    reason="marshalled bytecode is read by the Python version that wrote it only")
def test_a_model_with_lambdas_written_by_tf_keras_loads_and_predicts_the_same():
    # TF 2.15 calls the functional model's class Functional, TF 1.15 Model
    model = keras.models.model_from_json(FIXTURE["model_json"].replace('"Functional"', '"Model"'))
    model.set_weights([np.asarray(w, np.float32) for w in FIXTURE["weights"]])
    np.testing.assert_allclose(model.predict(np.asarray(FIXTURE["x"], np.float32)), FIXTURE["predicted"],
                               rtol=1e-6)
    assert [layer.name for layer in model.layers] == ["input_1", "scale", "shift", "head", "out"]


def offset_by(offset):
    return lambda x: x + offset


def halve(x):
    return x / 2.0


def keep_mask(inputs, mask=None):
    return mask


def test_lambda_configs_round_trip_through_json_and_load_model(tmp_path):
    inputs = keras.Input((4,))
    h = keras.layers.Lambda(offset_by(1.5))(inputs)
    h = keras.layers.Lambda(lambda x, scale=2.0: K.sum(x * scale, axis=-1, keepdims=True) + x,
                            output_shape=lambda shape: shape)(h)
    h = keras.layers.Lambda(halve)(h)
    h = keras.layers.Lambda(lambda x, w: x * w, arguments={"w": np.arange(4, dtype=np.float32)})(h)
    model = keras.Model(inputs, keras.layers.Dense(2)(h))
    x = np.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(np.float32)
    want = model.predict(x)
    config = json.loads(model.to_json())["config"]["layers"][1]["config"]
    assert config["function_type"] == "lambda" and config["function"][2] == [1.5]  # the closure's value
    clone = keras.models.model_from_json(model.to_json())
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone.predict(x), want, rtol=1e-6)
    path = str(tmp_path / "lambdas.model")
    model.compile("sgd", "mse")
    model.save(path)
    np.testing.assert_allclose(keras.models.load_model(path).predict(x), want, rtol=1e-6)


def test_functions_by_name_come_from_custom_objects():
    layer = keras.layers.Lambda(np.negative, name="negate")  # not a Python function: saved by name
    config = layer.get_config()
    assert (config["function"], config["function_type"]) == ("negative", "function")
    with pytest.raises(ValueError, match="Unknown function in Lambda layer: 'negative'"):
        keras.layers.Lambda.from_config(dict(config))
    clone = keras.layers.Lambda.from_config(dict(config), custom_objects={"negative": lambda t: -t})
    inputs = keras.Input((2,))
    model = keras.Model(inputs, clone(inputs))
    np.testing.assert_allclose(model.predict(np.array([[1.0, -2.0]])), [[-1.0, 2.0]])


def test_a_lambda_mask_and_output_shape_survive_the_round_trip():
    layer = keras.layers.Lambda(lambda x: x * 1.0, mask=keep_mask, output_shape=(5, 2))
    clone = keras.layers.Lambda.from_config(layer.get_config())
    assert clone.compute_output_shape((None, 5, 2)) == (None, 5, 2)
    inputs = keras.Input((5, 2))
    masked = clone(keras.layers.Masking()(inputs))
    pooled = keras.Model(inputs, keras.layers.GlobalAveragePooling1D()(masked))
    x = np.ones((1, 5, 2), np.float32)
    x[0, 3:] = 0.0
    x[0, 0] = 4.0
    np.testing.assert_allclose(pooled.predict(x), [[2.0, 2.0]])  # (4 + 1 + 1) / 3 unmasked steps


L = keras.layers
# class: (make the layer, the input shapes without the batch axis); every public layer class is here
LAYER_CASES = {
    L.Activation: (lambda: L.Activation("relu"), [(3,)]),
    L.ActivityRegularization: (lambda: L.ActivityRegularization(l1=0.1), [(3,)]),
    L.Add: (lambda: L.Add(), [(3,), (3,)]), L.Average: (lambda: L.Average(), [(3,), (3,)]),
    L.Maximum: (lambda: L.Maximum(), [(3,), (3,)]), L.Minimum: (lambda: L.Minimum(), [(3,), (3,)]),
    L.Multiply: (lambda: L.Multiply(), [(3,), (3,)]), L.Subtract: (lambda: L.Subtract(), [(3,), (3,)]),
    L.Concatenate: (lambda: L.Concatenate(), [(3,), (2,)]), L.Dot: (lambda: L.Dot(axes=1), [(3,), (3,)]),
    L.AlphaDropout: (lambda: L.AlphaDropout(0.2), [(3,)]),
    L.AveragePooling1D: (lambda: L.AveragePooling1D(), [(4, 2)]),
    L.AveragePooling2D: (lambda: L.AveragePooling2D(), [(4, 4, 2)]),
    L.AveragePooling3D: (lambda: L.AveragePooling3D(), [(4, 4, 4, 2)]),
    L.MaxPooling1D: (lambda: L.MaxPooling1D(), [(4, 2)]), L.MaxPooling2D: (lambda: L.MaxPooling2D(), [(4, 4, 2)]),
    L.MaxPooling3D: (lambda: L.MaxPooling3D(), [(4, 4, 4, 2)]),
    L.GlobalAveragePooling1D: (lambda: L.GlobalAveragePooling1D(), [(4, 2)]),
    L.GlobalAveragePooling2D: (lambda: L.GlobalAveragePooling2D(), [(4, 4, 2)]),
    L.GlobalAveragePooling3D: (lambda: L.GlobalAveragePooling3D(), [(4, 4, 4, 2)]),
    L.GlobalMaxPooling1D: (lambda: L.GlobalMaxPooling1D(), [(4, 2)]),
    L.GlobalMaxPooling2D: (lambda: L.GlobalMaxPooling2D(), [(4, 4, 2)]),
    L.GlobalMaxPooling3D: (lambda: L.GlobalMaxPooling3D(), [(4, 4, 4, 2)]),
    L.BatchNormalization: (lambda: L.BatchNormalization(momentum=0.9), [(3,)]),
    L.LayerNormalization: (lambda: L.LayerNormalization(), [(3,)]),
    L.Bidirectional: (lambda: L.Bidirectional(L.LSTM(2), merge_mode="sum"), [(3, 2)]),
    L.TimeDistributed: (lambda: L.TimeDistributed(L.Dense(2)), [(3, 2)]),
    L.Conv1D: (lambda: L.Conv1D(2, 2, padding="same"), [(5, 3)]),
    L.Conv2D: (lambda: L.Conv2D(2, 2, strides=2), [(5, 5, 3)]),
    L.Conv3D: (lambda: L.Conv3D(2, 2), [(4, 4, 4, 2)]),
    L.Conv2DTranspose: (lambda: L.Conv2DTranspose(2, 2), [(5, 5, 3)]),
    L.Conv3DTranspose: (lambda: L.Conv3DTranspose(2, 2), [(4, 4, 4, 2)]),
    L.SeparableConv1D: (lambda: L.SeparableConv1D(2, 2), [(5, 3)]),
    L.SeparableConv2D: (lambda: L.SeparableConv2D(2, 2, depth_multiplier=2), [(5, 5, 3)]),
    L.DepthwiseConv2D: (lambda: L.DepthwiseConv2D(2), [(5, 5, 3)]),
    L.ConvLSTM2D: (lambda: L.ConvLSTM2D(2, 2, return_sequences=True), [(2, 4, 4, 1)]),
    L.Cropping1D: (lambda: L.Cropping1D(1), [(5, 2)]), L.Cropping2D: (lambda: L.Cropping2D(1), [(5, 5, 2)]),
    L.Cropping3D: (lambda: L.Cropping3D(1), [(4, 4, 4, 2)]),
    L.ZeroPadding1D: (lambda: L.ZeroPadding1D(1), [(5, 2)]), L.ZeroPadding2D: (lambda: L.ZeroPadding2D(1), [(5, 5, 2)]),
    L.ZeroPadding3D: (lambda: L.ZeroPadding3D(1), [(2, 2, 2, 2)]),
    L.UpSampling1D: (lambda: L.UpSampling1D(2), [(4, 2)]), L.UpSampling2D: (lambda: L.UpSampling2D(2), [(3, 3, 2)]),
    L.UpSampling3D: (lambda: L.UpSampling3D(2), [(2, 2, 2, 2)]),
    L.CuDNNGRU: (lambda: L.CuDNNGRU(2), [(3, 2)]), L.CuDNNLSTM: (lambda: L.CuDNNLSTM(2), [(3, 2)]),
    L.GRU: (lambda: L.GRU(2, reset_after=True), [(3, 2)]), L.LSTM: (lambda: L.LSTM(2, return_sequences=True), [(3, 2)]),
    L.SimpleRNN: (lambda: L.SimpleRNN(2, go_backwards=True), [(3, 2)]),
    L.RNN: (lambda: L.RNN([L.SimpleRNNCell(2), L.GRUCell(3)]), [(3, 2)]),
    L.Dense: (lambda: L.Dense(2, activation="tanh", kernel_regularizer="l2"), [(3,)]),
    L.Dropout: (lambda: L.Dropout(0.5), [(3,)]), L.ELU: (lambda: L.ELU(0.5), [(3,)]),
    L.Embedding: (lambda: L.Embedding(5, 2, mask_zero=True), [(3,)]),
    L.Flatten: (lambda: L.Flatten(), [(2, 3)]),
    L.GaussianDropout: (lambda: L.GaussianDropout(0.2), [(3,)]),
    L.GaussianNoise: (lambda: L.GaussianNoise(0.1), [(3,)]),
    L.Lambda: (lambda: L.Lambda(lambda x: x * 2.0 + 1.0), [(3,)]),
    L.LeakyReLU: (lambda: L.LeakyReLU(0.2), [(3,)]), L.Masking: (lambda: L.Masking(0.5), [(3, 2)]),
    L.PReLU: (lambda: L.PReLU(), [(3,)]), L.Permute: (lambda: L.Permute((2, 1)), [(2, 3)]),
    L.ReLU: (lambda: L.ReLU(max_value=2.0), [(3,)]), L.RepeatVector: (lambda: L.RepeatVector(2), [(3,)]),
    L.Reshape: (lambda: L.Reshape((3, 2)), [(6,)]), L.Softmax: (lambda: L.Softmax(), [(3,)]),
    L.SpatialDropout1D: (lambda: L.SpatialDropout1D(0.5), [(4, 2)]),
    L.SpatialDropout2D: (lambda: L.SpatialDropout2D(0.5), [(4, 4, 2)]),
    L.SpatialDropout3D: (lambda: L.SpatialDropout3D(0.5), [(4, 4, 4, 2)]),
    L.ThresholdedReLU: (lambda: L.ThresholdedReLU(0.5), [(3,)]),
    L.Attention: (lambda: L.Attention(use_scale=True, causal=True), [(3, 2), (4, 2)]),
    L.AdditiveAttention: (lambda: L.AdditiveAttention(), [(3, 2), (4, 2), (4, 2)]),
    L.LocallyConnected1D: (lambda: L.LocallyConnected1D(2, 2, implementation=3), [(5, 3)]),
    L.LocallyConnected2D: (lambda: L.LocallyConnected2D(2, 2, padding="same", implementation=2), [(4, 3, 2)]),
}
# configs only: cells run inside an RNN, an InputLayer starts a model
CONFIG_CASES = {
    L.GRUCell: lambda: L.GRUCell(2), L.LSTMCell: lambda: L.LSTMCell(2, unit_forget_bias=False),
    L.SimpleRNNCell: lambda: L.SimpleRNNCell(2, activation="relu"),
    L.StackedRNNCells: lambda: L.StackedRNNCells([L.LSTMCell(2), L.GRUCell(2)]),
    L.InputLayer: lambda: L.InputLayer(input_shape=(3,), name="first"),
    L.DenseFeatures: lambda: L.DenseFeatures([
        tg.feature_column.bucketized_column(tg.feature_column.numeric_column("age", (2,)), [0.5, 2.0]),
        tg.feature_column.embedding_column(tg.feature_column.categorical_column_with_vocabulary_list(
            "thal", ["fixed", "normal"]), 3, combiner="sqrtn"),
        tg.feature_column.indicator_column(tg.feature_column.categorical_column_with_identity("id", 4))]),
}


def comparable(config):
    """A config with a Lambda's marshalled bytecode as the code object (marshal's bytes vary with refcounts)."""
    if config.get("function_type") == "lambda":
        code, defaults, closure = config["function"]
        config = dict(config, function=(marshal.loads(codecs.decode(code.encode("ascii"), "base64")), defaults,
                                        closure))
    return config


def test_every_layer_class_has_a_round_trip_case():
    classes = {c for c in vars(L).values() if isinstance(c, type) and issubclass(c, L.Layer)}
    assert classes - set(LAYER_CASES) - set(CONFIG_CASES) == {L.Layer, L.Wrapper, L.AbstractRNNCell}  # the bases


@pytest.mark.parametrize("cls", sorted(LAYER_CASES, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_from_config_makes_the_same_layer(cls):
    make, shapes = LAYER_CASES[cls]
    rng = np.random.RandomState(0)
    dtype = "int32" if cls is L.Embedding else "float32"
    arrays = [rng.randint(0, 5, (2,) + s) if dtype == "int32" else rng.uniform(-1, 1, (2,) + s).astype(np.float32)
              for s in shapes]
    models = []
    for layer in (make(), None):
        inputs = [keras.Input(s, dtype=dtype) for s in shapes]
        layer = layer or cls.from_config(models[0].layers[-1].get_config())
        models.append(keras.Model(inputs, layer(inputs[0] if len(inputs) == 1 else inputs)))
    original, clone = models
    assert type(clone.layers[-1]) is cls
    assert comparable(clone.layers[-1].get_config()) == comparable(original.layers[-1].get_config())
    written = [json.loads(m.to_json())["config"]["layers"][-1]["config"] for m in models]  # JSON-friendly too
    assert comparable(written[0]) == comparable(written[1])
    clone.set_weights(original.get_weights())
    np.testing.assert_allclose(clone.predict(arrays), original.predict(arrays), rtol=1e-6)


@pytest.mark.parametrize("cls", sorted(CONFIG_CASES, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_cell_and_input_configs_round_trip(cls):
    config = CONFIG_CASES[cls]().get_config()
    assert cls.from_config(config).get_config() == config


def test_layers_serialize_and_deserialize_as_keras():
    dense = L.Dense(3, activation="relu", name="d")
    spec = L.serialize(dense)
    assert spec == {"class_name": "Dense", "config": dense.get_config()}
    again = L.deserialize(spec)
    assert type(again) is L.Dense and again.get_config() == dense.get_config()
    model = keras.Sequential([L.Dense(2, input_shape=(3,))])
    assert isinstance(L.deserialize(L.serialize(model)), keras.Sequential)
    with pytest.raises(ValueError, match="Unknown layer"):
        L.deserialize({"class_name": "Nope", "config": {}})
