"""A classifier and a regression trained on contrib's losses, evaluated with contrib's streaming metrics.

Idioms: `tf.contrib.losses.softmax_cross_entropy(logits, onehot_labels)` and `mean_squared_error(predictions,
labels)`, predictions first; the loss module by its path (`from tensorflow.contrib.losses.python.losses import
loss_ops`); `tf.contrib.losses.get_total_loss()` over the collected losses; `slim = tf.contrib.slim` and
`slim.metrics.aggregate_metric_map({name: slim.metrics.streaming_*(predictions, labels)})`, the update ops run per
batch after `tf.local_variables_initializer()`; `tf.contrib.metrics.accuracy` on one batch.
"""
import numpy as np
import tensorflow as tf
from tensorflow.contrib.losses.python.losses import loss_ops

slim = tf.contrib.slim
rng = np.random.RandomState(0)
CENTRES = np.array([[2.0, 0.0], [-2.0, 1.0], [0.0, -2.0]], "float32")
classes = rng.randint(0, 3, 300)
points = (CENTRES[classes] + rng.normal(0, 0.7, (300, 2))).astype("float32")
targets = (2.0 * points[:, :1] + 1.0).astype("float32")

x = tf.placeholder(tf.float32, [None, 2])
onehot = tf.placeholder(tf.float32, [None, 3])
ids = tf.placeholder(tf.int64, [None])
y = tf.placeholder(tf.float32, [None, 1])
logits = tf.layers.dense(x, 3, kernel_initializer=tf.zeros_initializer())
fit = tf.layers.dense(x[:, :1], 1, kernel_initializer=tf.zeros_initializer())
xent = tf.contrib.losses.softmax_cross_entropy(logits, onehot)
mse = loss_ops.mean_squared_error(fit, y)
total = tf.contrib.losses.get_total_loss()
train = tf.train.GradientDescentOptimizer(0.1).minimize(total)

predicted = tf.argmax(logits, 1)
names_to_values, names_to_updates = slim.metrics.aggregate_metric_map({
    "accuracy": slim.metrics.streaming_accuracy(predicted, ids),
    "recall_of_1": tf.contrib.metrics.streaming_recall(tf.equal(predicted, 1), tf.equal(ids, 1)),
    "mse": tf.contrib.metrics.streaming_mean_squared_error(fit, y),
})
batch_accuracy = tf.contrib.metrics.accuracy(predicted, ids)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: points, onehot: np.eye(3)[classes], ids: classes, y: targets}
    print("first losses: cross entropy %.6f mse %.6f total %.6f" % tuple(sess.run([xent, mse, total], feed)))
    for step in range(200):
        sess.run(train, feed)
    print("trained losses: cross entropy %.6f mse %.6f" % tuple(sess.run([xent, mse], feed)))
    sess.run(tf.local_variables_initializer())
    for half in (slice(0, 150), slice(150, 300)):
        sess.run(list(names_to_updates.values()), {x: points[half], ids: classes[half], y: targets[half]})
    streamed = sess.run(names_to_values)
    guesses, fitted = sess.run([predicted, fit], feed)
    print("streamed accuracy %.6f numpy %.6f" % (streamed["accuracy"], np.mean(guesses == classes)))
    print("streamed recall of class 1 %.6f numpy %.6f" % (
        streamed["recall_of_1"], np.sum((guesses == 1) & (classes == 1)) / np.sum(classes == 1)))
    print("streamed mse %.6f numpy %.6f" % (streamed["mse"], np.mean((fitted - targets) ** 2)))
    print("batch accuracy %.6f" % sess.run(batch_accuracy, feed))
