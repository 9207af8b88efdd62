"""The ImageNet models against real Keras (keras_applications.json, recorded by record_keras.py): parameter
counts, layers with weights in order and their weight shapes; Keras 2.2.4-tf's names; arguments and errors."""
import json
import pathlib

import numpy as np
import pytest

from trainer import keras
from trainer.keras import backend as K
from trainer.keras.engine import hdf5_format

from .record_keras import RUNS, images, weight_values

RECORD = json.loads(pathlib.Path(__file__).with_name("keras_applications.json").read_text())
A = keras.applications
# Keras 2.2.4-tf's resnet50.py names its layers res2a_branch2a ...; tf-keras 2.x's resnet.py (the recording)
# names them conv2_block1_1_conv ... with the same weights in the same order. Since 2.2.4-tf the classifiers of
# MobileNetV2 (Logits) and DenseNet (fc1000) were renamed `predictions`.
RENAMED = {"Logits": "predictions", "fc1000": "predictions"}


@pytest.mark.parametrize("name", sorted(RECORD["models"]))
def test_models_match_keras(name):
    model = getattr(A, name)(weights=None)
    expected = RECORD["models"][name]
    assert model.count_params() == expected["params"]
    mine = [[layer.name, [list(K.int_shape(w)) for w in layer.weights]] for layer in model.layers if layer.weights]
    if name == "ResNet50":  # 2.x builds each shortcut before its main path: the same layers, listed otherwise
        mine, expected["layers"] = (sorted(layers, key=lambda layer: str(layer[1]))
                                    for layers in (mine, expected["layers"]))
    assert [shapes for _, shapes in mine] == [shapes for _, shapes in expected["layers"]]
    if name != "ResNet50":
        assert [RENAMED.get(n, n) for n, _ in mine] == [n for n, _ in expected["layers"]]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_outputs_match_keras_on_the_same_weights(name):
    model = getattr(A, name)(weights=None, **RUNS[name])
    model.set_weights(weight_values([(w.name, K.int_shape(w)) for w in model.weights]))
    out = model.predict(images(RUNS[name]["input_shape"]))
    expected = np.array(RECORD["runs"][name])
    # float32 through up to 100 layers: agreement to 1e-4 of the output's scale
    np.testing.assert_allclose(out, expected, rtol=1e-3, atol=1e-4 * np.abs(expected).max())


def test_keras_224_tf_names():
    names = [layer.name for layer in A.ResNet50(weights=None).layers]
    assert names[:4] == ["input_1", "conv1_pad", "conv1", "bn_conv1"] and names[-2:] == ["avg_pool", "fc1000"]
    assert "res2a_branch2a" in names and "bn5c_branch2c" in names
    start = names.index("res2a_branch2c")  # Keras 2.2.4's summary of ResNet50 lists them so
    assert names[start:start + 5] == ["res2a_branch2c", "res2a_branch1", "bn2a_branch2c", "bn2a_branch1", "add"]
    assert A.MobileNetV2(weights=None).layers[-1].name == "Logits"
    assert A.MobileNet(weights=None).name == "mobilenet_1.00_224"


def test_small_inputs_pooling_and_classes():
    model = A.ResNet50(weights=None, input_shape=(32, 32, 3), classes=10)
    assert K.int_shape(model.outputs[0]) == (None, 10)
    features = A.MobileNetV2(weights=None, include_top=False, input_shape=(64, 64, 3), pooling="avg")
    assert K.int_shape(features.outputs[0]) == (None, 1280)
    assert K.int_shape(A.VGG16(weights=None, include_top=False).outputs[0]) == (None, None, None, 512)
    x = np.random.RandomState(0).uniform(0, 255, (2, 32, 32, 3)).astype(np.float32)
    probs = A.DenseNet121(weights=None, input_shape=(32, 32, 3), classes=3).predict(x)
    np.testing.assert_allclose(probs.sum(axis=1), 1, rtol=1e-5)


def test_argument_errors_say_what_to_do():
    with pytest.raises(ValueError, match="Input size must be at least 75x75"):
        A.InceptionV3(weights=None, input_shape=(64, 64, 3))
    with pytest.raises(ValueError, match="static `input_shape`"):
        A.VGG16(weights=None, input_shape=(None, None, 3))
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        A.ResNet50(weights="imagenet", classes=10)
    with pytest.raises(ValueError, match="The `weights` argument"):
        A.ResNet50(weights="no/such/file.h5")


def test_imagenet_weights_come_from_keras_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(A.imagenet_utils, "CACHE_DIR", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5 is absent"):
        A.ResNet50(weights="imagenet", include_top=False)


def test_weights_file_round_trip(tmp_path):
    h5py = pytest.importorskip("h5py")
    model = A.MobileNet(weights=None, input_shape=(32, 32, 3), alpha=0.25, classes=4)
    values = [np.random.RandomState(i).standard_normal(K.int_shape(w)).astype(np.float32)
              for i, w in enumerate(model.weights)]
    with h5py.File(tmp_path / "w.h5", "w") as f:  # Keras' layout: layer_names, then each layer's weight_names
        with_weights = [layer for layer in model.layers if layer.weights]
        f.attrs["layer_names"] = [layer.name.encode() for layer in model.layers]
        it = iter(values)
        for layer in model.layers:
            group = f.create_group(layer.name)
            group.attrs["weight_names"] = [w.name.encode() for w in layer.weights]
            for w in layer.weights:
                group[w.name] = next(it)
    assert with_weights
    K.clear_session()
    again = A.MobileNet(weights=str(tmp_path / "w.h5"), input_shape=(32, 32, 3), alpha=0.25, classes=4)
    for got, want in zip(again.get_weights(), values):
        np.testing.assert_array_equal(got, want)


def test_preprocess_input_modes():
    x = np.array([[[[255.0, 0.0, 127.5]]]], dtype=np.float32)
    np.testing.assert_allclose(A.resnet50.preprocess_input(x), [[[[127.5 - 103.939, -116.779, 255 - 123.68]]]],
                               rtol=1e-6)
    np.testing.assert_allclose(A.mobilenet_v2.preprocess_input(x), [[[[1.0, -1.0, 0.0]]]], atol=1e-6)
    np.testing.assert_allclose(A.densenet.preprocess_input(x),
                               [[[[(1 - 0.485) / 0.229, -0.456 / 0.224, (0.5 - 0.406) / 0.225]]]], rtol=1e-5)
    placeholder = K.placeholder(shape=(None, 1, 1, 3))
    out = K.get_session().run(A.vgg16.preprocess_input(placeholder), {placeholder: x})
    np.testing.assert_allclose(out, A.vgg16.preprocess_input(x), rtol=1e-6)


def test_decode_predictions(tmp_path, monkeypatch):
    monkeypatch.setattr(A.imagenet_utils, "CACHE_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=r"shape \(samples, 1000\)"):
        A.resnet50.decode_predictions(np.zeros((2, 10)))
    with pytest.raises(FileNotFoundError, match="imagenet_class_index.json is absent"):
        A.resnet50.decode_predictions(np.zeros((1, 1000)))
    (tmp_path / "imagenet_class_index.json").write_text(json.dumps({str(i): [f"n{i:08d}", f"c{i}"]
                                                                    for i in range(1000)}))
    preds = np.zeros((1, 1000))
    preds[0, [7, 3, 500]] = [0.2, 0.5, 0.3]
    assert A.resnet50.decode_predictions(preds, top=2) == [[("n00000003", "c3", 0.5), ("n00000500", "c500", 0.3)]]


def test_without_h5py_an_hdf5_file_is_refused_naming_it(tmp_path, monkeypatch):
    monkeypatch.setattr(hdf5_format, "h5py_or_none", lambda: None)  # as where h5py is not installed
    (tmp_path / "w.h5").write_bytes(b"")
    with pytest.raises(ImportError, match="needs h5py"):
        A.VGG16(weights=str(tmp_path / "w.h5"), include_top=False)


def test_input_tensor_plain_or_keras():
    import trainer as tg
    images = tg.placeholder(tg.float32, [None, 32, 32, 3])
    model = A.VGG16(weights=None, include_top=False, input_tensor=images, pooling="max")
    assert model.inputs[0] is images and K.int_shape(model.outputs[0]) == (None, 512)
    inputs = keras.Input((32, 32, 3))
    doubled = keras.layers.Lambda(lambda t: t * 2)(inputs)
    model = A.MobileNet(weights=None, include_top=False, input_tensor=doubled, alpha=0.25, pooling="avg")
    assert model.inputs[0] is inputs  # the Inputs the tensor came from, as Keras' get_source_inputs finds them
    assert model.predict(np.ones((1, 32, 32, 3), np.float32)).shape == (1, 256)
