"""tf.keras.layers.DenseFeatures against graph-mode tf.keras (fixtures/keras_feature_layers.json, recorded by
fixtures/record_keras_feature_layers.py): its output and weights, and Sequential and functional models fit on a
tf.data dataset of (features dict, labels), TF 1.15's structured-data idiom."""
import json
import os

import numpy as np
import pytest

import trainer as tg
from trainer import keras

with open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras_feature_layers.json")) as f:
    ORACLE = json.load(f)
FEATURES = {"age": np.array([25.0, 47.0, 61.0, 33.0], "float32"), "fare": np.array([[7.5, 1.0], [30.0, 0.0],
            [12.0, 1.0], [8.0, 2.0]], "float32"), "thal": np.array(["normal", "fixed", "reversible", "normal"])}
LABELS = np.array([[0.0], [1.0], [1.0], [0.0]], "float32")
TABLE = np.arange(6, dtype="float32").reshape(3, 2) / 10.0


def columns():
    fc = tg.feature_column
    age = fc.numeric_column("age")
    thal = fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal", "reversible"])
    return [age, fc.bucketized_column(age, [30, 50]), fc.numeric_column("fare", shape=(2,)),
            fc.indicator_column(thal), fc.embedding_column(thal, 2, initializer=tg.constant_initializer(TABLE))]


def test_dense_features_concatenates_the_columns_by_name_with_its_weights_named_as_tfs():
    with tg.Session() as session:
        layer = keras.layers.DenseFeatures(columns())
        out = layer({k: tg.constant(v) for k, v in FEATURES.items()})
        session.run([tg.global_variables_initializer(), tg.tables_initializer()])
        np.testing.assert_allclose(session.run(out), ORACLE["dense_features"]["output"], rtol=1e-6)
    assert [w.name for w in layer.weights] == ORACLE["dense_features"]["weights"]
    assert out.shape.as_list() == ORACLE["dense_features"]["shape"]


@pytest.mark.parametrize("kind", ["sequential", "functional"])
def test_a_model_on_dense_features_fits_a_dataset_of_feature_dicts_as_tf_keras(kind):
    dense = keras.layers.Dense(1, activation="sigmoid", kernel_initializer="zeros")
    if kind == "sequential":  # built by the first batch: an Input per feature
        model = keras.Sequential([keras.layers.DenseFeatures(columns()), dense])
    else:
        inputs = {"age": keras.Input((), name="age"), "fare": keras.Input((2,), name="fare"),
                  "thal": keras.Input((), name="thal", dtype=tg.string)}
        model = keras.Model(inputs, dense(keras.layers.DenseFeatures(columns())(inputs)))
    model.compile(keras.optimizers.SGD(0.01), "binary_crossentropy", metrics=["accuracy"])
    data = tg.data.Dataset.from_tensor_slices((dict(FEATURES), LABELS)).batch(2)
    history = model.fit(data, epochs=3, verbose=0)
    np.testing.assert_allclose(history.history["loss"], ORACLE[kind]["loss"], rtol=1e-5)
    np.testing.assert_allclose(model.predict(data), ORACLE[kind]["predict"], rtol=1e-5)
    np.testing.assert_allclose(model.predict(FEATURES), ORACLE[kind]["predict"], rtol=1e-5)
    if kind == "functional":
        assert [w.name for w in model.weights] == ORACLE[kind]["weights"]
        assert model.input_names == ["age", "fare", "thal"]


def test_dense_features_refuses_what_is_not_a_dict_and_categorical_columns():
    layer = keras.layers.DenseFeatures([tg.feature_column.numeric_column("age")])
    with pytest.raises(ValueError, match="takes a dict of features by name"):
        layer(tg.constant([[1.0]]))
    thal = tg.feature_column.categorical_column_with_vocabulary_list("thal", ["a"])
    with pytest.raises(ValueError, match="wrap a categorical column with embedding_column"):
        keras.layers.DenseFeatures([thal])


def test_a_dense_features_model_saves_and_loads_with_its_columns_in_its_config(tmp_path):
    inputs = {"age": keras.Input((), name="age"), "fare": keras.Input((2,), name="fare"),
              "thal": keras.Input((), name="thal", dtype=tg.string)}
    fc = tg.feature_column
    layer = keras.layers.DenseFeatures([fc.numeric_column("age"), fc.numeric_column("fare", shape=(2,)),
                                        fc.embedding_column(fc.categorical_column_with_vocabulary_list(
                                            "thal", ["fixed", "normal", "reversible"]), 2)])
    model = keras.Model(inputs, keras.layers.Dense(1)(layer(inputs)))
    model.save(str(tmp_path / "model"))
    again = keras.models.load_model(str(tmp_path / "model"))
    np.testing.assert_allclose(again.predict(FEATURES), model.predict(FEATURES), rtol=1e-6)
    assert again.get_config() == model.get_config()
    with pytest.raises(NotImplementedError, match="has a function as its initializer"):
        keras.layers.DenseFeatures(columns()).get_config()


def test_a_sequential_built_from_a_features_dict_saves_and_loads(tmp_path):
    fc = tg.feature_column
    model = keras.Sequential([keras.layers.DenseFeatures([fc.numeric_column("age"), fc.numeric_column("fare", (2,))]),
                              keras.layers.Dense(1)])
    features = {"age": FEATURES["age"], "fare": FEATURES["fare"]}
    expected = model.predict(features)
    model.save(str(tmp_path / "model"))
    again = keras.models.load_model(str(tmp_path / "model"))
    np.testing.assert_allclose(again.predict(features), expected, rtol=1e-6)
