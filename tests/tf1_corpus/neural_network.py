"""A dense network of `tf.layers` inside a custom `tf.estimator.Estimator`, fed from numpy arrays.

Idioms: a `model_fn(features, labels, mode)` returning `EstimatorSpec`s (predictions only in PREDICT mode,
loss, train op and `eval_metric_ops` otherwise); `tf.layers.dense` without activations;
`sparse_softmax_cross_entropy_with_logits` on labels cast to int32; `minimize(global_step=
tf.train.get_global_step())`; `tf.metrics.accuracy`; `tf.estimator.inputs.numpy_input_fn` over a features dict,
endless and shuffled for training, one ordered pass for evaluation; the evaluation dict's `global_step`.
"""
import tensorflow as tf

import corpus_data

digits = corpus_data.mnist(one_hot=False)
STEPS, BATCH = 300, 128


def model_fn(features, labels, mode):
    hidden = features["pixels"]
    for width in (256, 256):
        hidden = tf.layers.dense(hidden, width)
    logits = tf.layers.dense(hidden, 10)
    classes = tf.argmax(logits, axis=1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=classes)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        logits=logits, labels=tf.cast(labels, dtype=tf.int32)))
    train_op = tf.train.GradientDescentOptimizer(learning_rate=0.1).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode=mode, predictions=classes, loss=loss, train_op=train_op,
                                      eval_metric_ops={"hit_rate": tf.metrics.accuracy(labels=labels,
                                                                                       predictions=classes)})


classifier = tf.estimator.Estimator(model_fn)
classifier.train(tf.estimator.inputs.numpy_input_fn(x={"pixels": digits.train.images}, y=digits.train.labels,
                                                    batch_size=BATCH, num_epochs=None, shuffle=True),
                 steps=STEPS)
report = classifier.evaluate(tf.estimator.inputs.numpy_input_fn(
    x={"pixels": digits.test.images}, y=digits.test.labels, batch_size=BATCH, shuffle=False))
print("evaluation hit rate:", report["hit_rate"])
print("evaluation step:", report["global_step"])
