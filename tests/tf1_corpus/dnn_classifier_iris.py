"""A canned estimator end to end: tf.estimator.DNNClassifier (three hidden layers, three classes) on iris-like
measurements (corpus_data.iris) given as one 4-wide numeric feature column, fed by
tf.estimator.inputs.numpy_input_fn for training (shuffled, repeating), evaluation (one ordered pass) and
prediction (features only); prints the evaluation's accuracy and each new flower's predicted "classes" entry."""
import numpy as np
import tensorflow as tf

import corpus_data


def measurements(count, seed):
    columns, species = corpus_data.iris(count, seed=seed)
    stacked = np.stack([columns[name] for name in ("SepalLength", "SepalWidth", "PetalLength", "PetalWidth")], 1)
    return stacked.astype(np.float32), species.astype(np.int32)


train_x, train_y = measurements(240, seed=0)
eval_x, eval_y = measurements(60, seed=1)
estimator = tf.estimator.DNNClassifier(hidden_units=[12, 16, 12], n_classes=3, model_dir="flowers",
                                       feature_columns=[tf.feature_column.numeric_column("m", shape=[4])])
estimator.train(steps=400, input_fn=tf.estimator.inputs.numpy_input_fn(
    {"m": train_x}, train_y, shuffle=True, num_epochs=None))
scores = estimator.evaluate(input_fn=tf.estimator.inputs.numpy_input_fn(
    {"m": eval_x}, eval_y, shuffle=False, num_epochs=1))
print("evaluation accuracy: {:f}".format(scores["accuracy"]))

unseen = np.array([[6.3, 3.3, 4.7, 1.6], [5.0, 3.5, 1.4, 0.3]], np.float32)
guesses = estimator.predict(input_fn=tf.estimator.inputs.numpy_input_fn({"m": unseen}, shuffle=False,
                                                                        num_epochs=1))
print("predicted classes:", [guess["classes"] for guess in guesses])
