# Mirrors tensorflow/docs: site/en/r1/guide/premade_estimators.md's forerunner, the r1 "tf.estimator Quickstart" (iris)
"""A premade Estimator: tf.estimator.DNNClassifier with hidden_units [10, 20, 10] and n_classes=3 on one
four-wide numeric feature column, trained, evaluated and asked for predictions through
tf.estimator.inputs.numpy_input_fn, printing the test accuracy and the predicted classes of two new flowers.

Changed from the original: synthetic iris-like measurements (corpus_data.iris) instead of the CSV downloads read by
tf.contrib.learn's load_csv_with_header; 400 training steps instead of 2000; model_dir "iris_model" in the working
directory instead of /tmp/iris_model.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import numpy as np
import tensorflow as tf

import corpus_data


def load(n, seed):
    features, target = corpus_data.iris(n, seed=seed)
    data = np.stack([features[k] for k in ("SepalLength", "SepalWidth", "PetalLength", "PetalWidth")], axis=1)
    return data.astype(np.float32), target.astype(np.int32)


def main():
  # Load datasets.
  training_data, training_target = load(240, seed=0)
  test_data, test_target = load(60, seed=1)

  # Specify that all features have real-value data
  feature_columns = [tf.feature_column.numeric_column("x", shape=[4])]

  # Build 3 layer DNN with 10, 20, 10 units respectively.
  classifier = tf.estimator.DNNClassifier(feature_columns=feature_columns,
                                          hidden_units=[10, 20, 10],
                                          n_classes=3,
                                          model_dir="iris_model")
  # Define the training inputs
  train_input_fn = tf.estimator.inputs.numpy_input_fn(
      x={"x": np.array(training_data)},
      y=np.array(training_target),
      num_epochs=None,
      shuffle=True)

  # Train model.
  classifier.train(input_fn=train_input_fn, steps=400)

  # Define the test inputs
  test_input_fn = tf.estimator.inputs.numpy_input_fn(
      x={"x": np.array(test_data)},
      y=np.array(test_target),
      num_epochs=1,
      shuffle=False)

  # Evaluate accuracy.
  accuracy_score = classifier.evaluate(input_fn=test_input_fn)["accuracy"]

  print("\nTest Accuracy: {0:f}\n".format(accuracy_score))

  # Classify two new flower samples.
  new_samples = np.array(
      [[6.4, 3.2, 4.5, 1.5],
       [5.8, 3.1, 5.0, 1.7]], dtype=np.float32)
  predict_input_fn = tf.estimator.inputs.numpy_input_fn(
      x={"x": new_samples},
      num_epochs=1,
      shuffle=False)

  predictions = list(classifier.predict(input_fn=predict_input_fn))
  predicted_classes = [p["classes"] for p in predictions]

  print(
      "New Samples, Class Predictions:    {}\n"
      .format(predicted_classes))

if __name__ == "__main__":
    main()
