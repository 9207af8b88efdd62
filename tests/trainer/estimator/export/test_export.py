"""Estimator.export_saved_model with tf.estimator.export's receivers and ExportOutputs: a SavedModel that
loader.load serves as the Estimator predicts (TensorFlow 2.15 serves it too: scripts/record_tf_files.py check,
its output in tests/trainer/train/fixtures/tf_files/tf_read_ringflow_files.txt)."""
import os

import numpy as np
import pytest

import trainer as tf
from trainer.estimator import ModeKeys
from trainer.estimator.export import (ClassificationOutput, PredictOutput, RegressionOutput,
                                      build_parsing_serving_input_receiver_fn, build_raw_serving_input_receiver_fn)

X = np.random.RandomState(0).randn(48, 2).astype(np.float32)
Y = (X[:, 0] > 0).astype(np.int64) + (X[:, 1] > 0)


def receiver_fn():
    return build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 2], name="x")})


def classifier(tmp_path):
    est = tf.estimator.DNNClassifier([6], [tf.feature_column.numeric_column("x", shape=[2])], n_classes=3,
                                     model_dir=str(tmp_path / "model"))
    return est.train(tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=16, num_epochs=2, shuffle=False))


def serve(export_dir, signature_key, output, x):
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        signature = meta.signature_def[signature_key]
        return sorted(meta.signature_def), sess.run(signature.outputs[output].name, {signature.inputs["x"].name: x})


def test_a_dnn_classifier_exports_a_saved_model_that_serves_its_predictions(tmp_path):
    est = classifier(tmp_path)
    (tmp_path / "vocab.txt").write_text("a\nb\n")
    export_dir = est.export_saved_model(str(tmp_path / "export"), receiver_fn(),
                                        assets_extra={"more/vocab.txt": str(tmp_path / "vocab.txt")})
    assert isinstance(export_dir, bytes)  # as TF1 returns it
    export_dir = export_dir.decode()
    assert os.path.dirname(export_dir) == str(tmp_path / "export") and os.path.basename(export_dir).isdigit()
    assert os.listdir(tmp_path / "export") == [os.path.basename(export_dir)]  # the temp- directory is renamed
    assert (tmp_path / "export" / export_dir / "assets.extra" / "more" / "vocab.txt").read_text() == "a\nb\n"
    predicted = [p["probabilities"] for p in est.predict(tf.estimator.inputs.numpy_input_fn({"x": X[:5]},
                                                                                          shuffle=False))]
    # raw float inputs serve Predict only: Classify reads serialized tf.Examples (TF1 leaves it out the same way)
    signatures, served = serve(export_dir, "predict", "probabilities", X[:5])
    assert signatures == ["predict"]
    np.testing.assert_allclose(served, predicted, rtol=1e-6)
    assert serve(export_dir, "predict", "all_classes", X[:1])[1].tolist() == [[b"0", b"1", b"2"]]
    again = est.export_savedmodel(str(tmp_path / "export"), receiver_fn()).decode()  # TF1's older name
    assert again != export_dir and serve(again, "predict", "probabilities", X[:5])[0] == ["predict"]


def export_model_fn(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.ones_initializer())
    y = tf.matmul(features["x"], w)
    if mode == ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": y}, export_outputs={
            "regression": RegressionOutput(y), "doubled": PredictOutput({"twice": 2.0 * y})})
    loss = tf.reduce_sum(y)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.train.get_global_step().assign_add(1))


def test_export_outputs_name_the_signatures_and_a_lone_one_serves_as_default(tmp_path):
    est = tf.estimator.Estimator(export_model_fn, model_dir=str(tmp_path / "model"))
    with pytest.raises(ValueError, match="Couldn't find trained model"):
        est.export_saved_model(str(tmp_path / "export"), receiver_fn())
    est.train(tf.estimator.inputs.numpy_input_fn({"x": X}, Y.astype(np.float32), batch_size=16, shuffle=False),
              steps=1)
    with pytest.raises(ValueError, match="none of them is specified as the default"):
        est.export_saved_model(str(tmp_path / "export"), receiver_fn())
    lone = tf.estimator.Estimator(_lone, model_dir=str(tmp_path / "model"))
    export_dir = lone.export_saved_model(str(tmp_path / "export"), receiver_fn()).decode()
    signatures, twice = serve(export_dir, "serving_default", "twice", X[:2])
    assert signatures == ["doubled", "serving_default"]
    np.testing.assert_allclose(twice, 2.0 * X[:2].sum(axis=1, keepdims=True), rtol=1e-6)


def _lone(features, labels, mode):
    spec = export_model_fn(features, labels, mode)
    if mode != ModeKeys.PREDICT:
        return spec
    return spec._replace(export_outputs={"doubled": PredictOutput({"twice": 2.0 * spec.predictions["y"]})})


def test_classify_and_regress_signatures_read_one_string_tensor_of_examples():
    with tf.Graph().as_default():
        examples = tf.placeholder(tf.string, [None], name="examples")
        scores = tf.constant([[0.25, 0.75]])
        classes = tf.constant([[b"a", b"b"]])
        signature = ClassificationOutput(scores=scores, classes=classes).as_signature_def({"inputs": examples})
        assert signature.method_name == "tensorflow/serving/classify"
        assert (signature.inputs["inputs"].name, signature.outputs["scores"].name,
                signature.outputs["classes"].name) == ("examples:0", scores.name, classes.name)
        regress = RegressionOutput(tf.constant([1.0])).as_signature_def({"inputs": examples})
        assert regress.method_name == "tensorflow/serving/regress" and list(regress.outputs) == ["outputs"]
        floats = tf.placeholder(tf.float32, [None, 2])
        with pytest.raises(ValueError, match="Classification input must be a single string Tensor"):
            ClassificationOutput(scores=scores).as_signature_def({"x": floats})
        with pytest.raises(ValueError, match="Classification classes must be a string Tensor"):
            ClassificationOutput(classes=scores)
        with pytest.raises(ValueError, match="At least one of scores and classes"):
            ClassificationOutput()
        assert PredictOutput(scores).as_signature_def({"x": floats}).outputs["output"].name == scores.name


def _examples(x):
    return np.array([tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=row))})).SerializeToString() for row in x], object)


def test_a_parsing_receiver_serves_classify_and_predict_from_serialized_examples(tmp_path):
    est = classifier(tmp_path)
    spec = {"x": tf.FixedLenFeature([2], tf.float32)}
    export_dir = est.export_saved_model(str(tmp_path / "export"),
                                        build_parsing_serving_input_receiver_fn(spec)).decode()
    expected = np.stack([p["probabilities"] for p in est.predict(
        tf.estimator.inputs.numpy_input_fn({"x": X[:5]}, shuffle=False))])
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        assert sorted(meta.signature_def) == ["classification", "predict", "serving_default"]
        classify = meta.signature_def["classification"]
        assert classify.method_name == "tensorflow/serving/classify"
        assert classify.inputs["inputs"].name == "input_example_tensor:0"
        scores = sess.run(classify.outputs["scores"].name, {classify.inputs["inputs"].name: _examples(X[:5])})
        predict = meta.signature_def["predict"]
        probabilities = sess.run(predict.outputs["probabilities"].name,
                                 {predict.inputs["examples"].name: _examples(X[:5])})
    np.testing.assert_allclose(scores, expected, rtol=1e-6)
    np.testing.assert_allclose(probabilities, expected, rtol=1e-6)


def test_a_parsing_receiver_gives_var_len_features_as_sparse_tensors():
    with tf.Graph().as_default():
        receiver = build_parsing_serving_input_receiver_fn({"ids": tf.VarLenFeature(tf.int64)}, 8)()
        assert isinstance(receiver.features["ids"], tf.SparseTensor)
        assert list(receiver.receiver_tensors) == ["examples"]
        assert receiver.receiver_tensors["examples"].shape.as_list() == [8]
