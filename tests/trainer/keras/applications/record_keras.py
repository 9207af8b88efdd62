"""Records real Keras' ImageNet models (layers with weights, in order, their weight shapes; parameter counts) into
keras_applications.json beside this file. Run it once in a venv with TensorFlow and tf-keras:
    /work/tfvenv/bin/python tests/trainer/keras/applications/record_keras.py
The tests compare ringflow's models with the file and never import TensorFlow."""
import json
import pathlib

import numpy as np

MODELS = ["ResNet50", "VGG16", "VGG19", "MobileNet", "MobileNetV2", "InceptionV3", "DenseNet121", "ResNet101",
          "ResNet152", "ResNet50V2", "ResNet101V2", "ResNet152V2", "Xception", "InceptionResNetV2",
          "NASNetMobile", "NASNetLarge"]
# Small variants run on fixed weights (weight_values) and inputs (images): their outputs, in inference mode.
RUNS = {"MobileNet": dict(alpha=0.25, include_top=False, input_shape=(32, 32, 3), pooling="max"),
        "MobileNetV2": dict(alpha=0.35, include_top=False, input_shape=(32, 32, 3), pooling="avg"),
        "DenseNet121": dict(input_shape=(32, 32, 3), classes=10),
        "VGG16": dict(include_top=False, input_shape=(32, 32, 3), pooling="avg"),
        "InceptionV3": dict(include_top=False, input_shape=(75, 75, 3), pooling="avg"),
        "ResNet50V2": dict(input_shape=(32, 32, 3), classes=10),
        "Xception": dict(include_top=False, input_shape=(71, 71, 3), pooling="max"),
        "InceptionResNetV2": dict(include_top=False, input_shape=(75, 75, 3), pooling="avg"),
        "NASNetMobile": dict(include_top=False, input_shape=(64, 64, 3), pooling="avg")}


def weight_values(names_and_shapes):
    """Weights both sides can make: uniform in [-0.1, 0.1], gammas and variances in [0.5, 1.5]."""
    values = []
    for i, (name, shape) in enumerate(names_and_shapes):
        low = 0.5 if name.endswith(("gamma:0", "moving_variance:0")) else -0.1
        values.append(np.random.RandomState(i).uniform(low, low + (1.0 if low > 0 else 0.2), shape).astype("f4"))
    return values


def images(shape):
    return np.random.RandomState(0).uniform(-1, 1, (2,) + tuple(shape)).astype("f4")


def main():
    import tensorflow as tf  # here, so that the tests can import RUNS, weight_values and images without it
    import tf_keras
    record = {"recorded_by": f"tensorflow {tf.__version__}, tf-keras {tf_keras.__version__}", "models": {}}
    for name in MODELS:
        tf_keras.backend.clear_session()
        model = getattr(tf_keras.applications, name)(weights=None)
        record["models"][name] = {
            "params": int(model.count_params()),
            "layers": [[layer.name, [list(w.shape) for w in layer.weights]] for layer in model.layers if layer.weights],
        }
    record["runs"] = {}
    for name, kwargs in RUNS.items():
        tf_keras.backend.clear_session()
        model = getattr(tf_keras.applications, name)(weights=None, **kwargs)
        model.set_weights(weight_values([(w.name, w.shape) for w in model.weights]))
        record["runs"][name] = model.predict(images(kwargs["input_shape"]), verbose=0).round(6).tolist()
    path = pathlib.Path(__file__).with_name("keras_applications.json")
    path.write_text(json.dumps(record, indent=0) + "\n")


if __name__ == "__main__":
    main()
