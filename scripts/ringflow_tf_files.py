"""Write TensorFlow's files with ringflow, for `scripts/record_tf_files.py check DIR` to read with real TensorFlow:

    python scripts/ringflow_tf_files.py DIR

DIR gets a tg.train.Saver checkpoint (model.ckpt-5.index, .data-00000-of-00001, .meta, `checkpoint`), a
SavedModel (saved_model/, by tg.saved_model.simple_save), a DNNClassifier's export_saved_model for raw features
(estimator/<time>/) and for serialized tf.Examples (estimator_parsing/<time>/), and expected.json: the variables' values, y = x @ W + b for a fixed x and the classifier's predictions, which
TensorFlow must read back.
"""
import json
import os
import sys

import numpy as np

import trainer as tg

VALUES = {"dense/kernel": np.arange(6, dtype=np.float32).reshape(2, 3) / 8 + 0.125,
          "dense/bias": np.array([-0.5, 1.0, 2.5], dtype=np.float32),
          "counts": np.array([[7, -1], [0, 9]], dtype=np.int32), "big": np.array([2.0 / 3, -1e300], dtype=np.float64),
          "flags": np.array([False, True]), "global_step": np.array(5, dtype=np.int64)}
INPUT = np.array([[0.5, -2.0], [3.0, 1.0]], dtype=np.float32)


def write(directory):
    os.makedirs(directory, exist_ok=True)
    with tg.Graph().as_default():
        variables = {name: tg.Variable(value, name=name, trainable=name.startswith("dense"))
                     for name, value in VALUES.items()}
        x = tg.placeholder(tg.float32, [None, 2], name="x")
        y = tg.add(tg.matmul(x, variables["dense/kernel"]), variables["dense/bias"], name="y")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            prefix = tg.train.Saver().save(sess, os.path.join(directory, "model.ckpt"), global_step=5)
            output = sess.run(y, {x: INPUT})
            tg.saved_model.simple_save(sess, os.path.join(directory, "saved_model"), {"x": x}, {"y": y})
    export_dir, parsing_dir, probabilities = export_classifier(directory)
    expected = {"ringflow": tg.__version__, "checkpoint": os.path.basename(prefix),
                "estimator_export": os.path.relpath(export_dir, directory), "probabilities": probabilities,
                "parsing_export": os.path.relpath(parsing_dir, directory),
                "examples": [e.hex() for e in examples(INPUT)],
                "values": {k: np.asarray(v).tolist() for k, v in VALUES.items()},
                "dtypes": {k: np.asarray(v).dtype.name for k, v in VALUES.items()},
                "input": INPUT.tolist(), "output": output.tolist()}
    with open(os.path.join(directory, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
    print(f"wrote {prefix} and {os.path.join(directory, 'saved_model')}")


def examples(x):
    """Each row of `x` as a serialized tf.train.Example of one float feature "x"."""
    return [tg.train.Example(features=tg.train.Features(feature={
        "x": tg.train.Feature(float_list=tg.train.FloatList(value=row))})).SerializeToString() for row in x]


def export_classifier(directory):
    """Train a small DNNClassifier, export it for raw float features and for serialized tf.Examples; (the two
    export dirs, its probabilities for INPUT)."""
    rng = np.random.RandomState(0)
    features = rng.randn(64, 2).astype(np.float32)
    labels = (features[:, 0] > 0).astype(np.int64) + (features[:, 1] > 0)
    estimator = tg.estimator.DNNClassifier([8], [tg.feature_column.numeric_column("x", shape=[2])], n_classes=3,
                                           model_dir=os.path.join(directory, "estimator_model"),
                                           config=tg.estimator.RunConfig(tf_random_seed=1))
    estimator.train(tg.estimator.inputs.numpy_input_fn({"x": features}, labels, batch_size=16, num_epochs=3,
                                                       shuffle=False))
    receiver = tg.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tg.placeholder(tg.float32, [None, 2], name="x")})
    export_dir = estimator.export_saved_model(os.path.join(directory, "estimator"), receiver).decode()
    parsing = tg.estimator.export.build_parsing_serving_input_receiver_fn({"x": tg.FixedLenFeature([2], tg.float32)})
    parsing_dir = estimator.export_saved_model(os.path.join(directory, "estimator_parsing"), parsing).decode()
    predicted = estimator.predict(tg.estimator.inputs.numpy_input_fn({"x": INPUT}, shuffle=False))
    return export_dir, parsing_dir, [p["probabilities"].tolist() for p in predicted]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    write(sys.argv[1])
