"""A tf.layers CNN inside a tf.estimator.Estimator model_fn. The model_fn builds the network twice under one
tf.variable_scope -- a training copy with tf.layers.dropout active and an inference copy re-entering the scope
with reuse=True -- so one set of variables serves both; it returns an EstimatorSpec per mode (PREDICT: classes
only; else loss, Adam train_op on the global step, tf.metrics.accuracy). Input comes from
tf.estimator.inputs.numpy_input_fn; train, evaluate, predict and get_variable_names are called in turn."""
import tensorflow as tf

import corpus_data

CLASSES, DROP, BATCH, STEPS, SHOWN = 10, 0.25, 64, 100, 4


def network(images, training, reuse):
    with tf.variable_scope("ConvNet", reuse=reuse):
        maps = tf.reshape(images, [-1, 28, 28, 1])
        for filters, size in ((8, 5), (16, 3)):
            maps = tf.layers.max_pooling2d(tf.layers.conv2d(maps, filters, size, activation=tf.nn.relu), 2, 2)
        hidden = tf.layers.dense(tf.contrib.layers.flatten(maps), 64)
        return tf.layers.dense(tf.layers.dropout(hidden, rate=DROP, training=training), CLASSES)


def model_fn(features, labels, mode):
    train_scores = network(features["pixels"], training=True, reuse=False)
    classes = tf.argmax(network(features["pixels"], training=False, reuse=True), axis=1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=classes)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.cast(labels, tf.int32), logits=train_scores))
    step = tf.train.AdamOptimizer(0.001).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, predictions=classes, loss=loss, train_op=step,
                                      eval_metric_ops={"accuracy": tf.metrics.accuracy(labels, classes)})


def feed(images, labels=None, **options):
    return tf.estimator.inputs.numpy_input_fn(x={"pixels": images}, y=labels, **options)


digits = corpus_data.mnist(one_hot=False)
classifier = tf.estimator.Estimator(model_fn)
classifier.train(feed(digits.train.images, digits.train.labels, batch_size=BATCH, num_epochs=None,
                      shuffle=True), steps=STEPS)
scores = classifier.evaluate(feed(digits.test.images, digits.test.labels, batch_size=BATCH, shuffle=False))
print("held-out accuracy:", scores["accuracy"])
guesses = classifier.predict(feed(digits.test.images[:SHOWN], shuffle=False))
for guess, label in zip(guesses, digits.test.labels[:SHOWN]):
    print("guessed %d for a %d" % (guess, label))
print("variables:", sorted(classifier.get_variable_names()))
