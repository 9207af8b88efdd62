"""tf.keras.experimental.export_saved_model and load_from_saved_model: a TF SavedModel whose serving signature
predicts as the model does, and the model back from the JSON TF 1.15 keeps in assets/saved_model.json."""
import json
import os

import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K
from trainer.saved_model.loader import read_saved_model

X = np.linspace(-1.0, 1.0, 12, dtype="float32").reshape(4, 3)


def trained_model():
    inputs = keras.Input((3,), name="features")
    hidden = keras.layers.Dense(5, activation="relu")(inputs)
    model = keras.Model(inputs, keras.layers.Dense(2, name="scores")(hidden))
    model.compile("adam", "mse")
    model.fit(X, np.ones((4, 2), "float32"), epochs=2, verbose=0)
    return model


def test_the_export_serves_the_models_predictions_and_loads_back_as_the_same_model(tmp_path):
    model = trained_model()
    expected = model.predict(X)
    path = str(tmp_path / "export")
    keras.experimental.export_saved_model(model, path)
    with open(os.path.join(path, "assets", "saved_model.json")) as f:
        assert json.loads(f.read()) == json.loads(model.to_json())
    # Keras' session checks its variables with IsVariableInitialized, whose type TF's op names "dtype": TF 2.15
    # imports the graph and serves the same predictions (checked once by hand; no TF in the tests)
    checks = [n for n in read_saved_model(path).meta_graphs[0].graph_def.node if n.op == "IsVariableInitialized"]
    assert checks and all("dtype" in n.attr and "T" not in n.attr for n in checks)
    K.clear_session()
    with tg.Graph().as_default(), tg.Session() as session:
        meta = tg.saved_model.loader.load(session, [tg.saved_model.tag_constants.SERVING], path)
        signature = meta.signature_def["serving_default"]
        feed = session.graph.get_tensor_by_name(signature.inputs["features"].name)
        fetch = session.graph.get_tensor_by_name(signature.outputs["scores"].name)
        np.testing.assert_allclose(session.run(fetch, {feed: X}), expected, rtol=1e-6)
    K.clear_session()
    loaded = keras.experimental.load_from_saved_model(path)
    np.testing.assert_allclose(loaded.predict(X), expected, rtol=1e-6)
    assert [layer.name for layer in loaded.layers] == [layer.name for layer in model.layers]


def test_loading_what_is_not_a_keras_export_says_what_to_use(tmp_path):
    with pytest.raises(FileNotFoundError, match="tf.saved_model.loader.load"):
        keras.experimental.load_from_saved_model(str(tmp_path))
