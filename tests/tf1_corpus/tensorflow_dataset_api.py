"""A small CNN whose inputs come straight from a `tf.data` pipeline instead of feeds.

Idioms: `tf.data.Dataset.from_tensor_slices` over a (images, labels) tuple of numpy arrays, then `repeat`,
`batch` and `prefetch`; `make_initializable_iterator` with its `initializer` run before the variables'; the
`get_next()` pair used directly as the network's input, so `sess.run` takes no feed; a `tf.layers` CNN built
twice in one `variable_scope` (training with dropout, then reused for inference with a softmax).
"""
import tensorflow as tf

import corpus_data

digits = corpus_data.mnist(one_hot=True)
BATCH, STEPS, EVERY = 64, 60, 20

pipeline = (tf.data.Dataset.from_tensor_slices((digits.train.images, digits.train.labels))
            .repeat().batch(BATCH).prefetch(BATCH))
iterator = pipeline.make_initializable_iterator()
images, onehots = iterator.get_next()


def classifier(pixels, training, reuse):
    with tf.variable_scope("Classifier", reuse=reuse):
        net = tf.reshape(pixels, shape=[-1, 28, 28, 1])
        net = tf.layers.max_pooling2d(tf.layers.conv2d(net, 8, 5, activation=tf.nn.relu), 2, 2)
        net = tf.layers.max_pooling2d(tf.layers.conv2d(net, 16, 3, activation=tf.nn.relu), 2, 2)
        net = tf.layers.dense(tf.contrib.layers.flatten(net), 64)
        net = tf.layers.dense(tf.layers.dropout(net, rate=0.25, training=training), 10)
        return net if training else tf.nn.softmax(net)


train_scores = classifier(images, training=True, reuse=False)
test_scores = classifier(images, training=False, reuse=True)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=train_scores, labels=onehots))
learn = tf.train.AdamOptimizer(learning_rate=0.001).minimize(loss)
hit_rate = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(test_scores, 1), tf.argmax(onehots, 1)), tf.float32))

session = tf.Session()
session.run(iterator.initializer)
session.run(tf.global_variables_initializer())
for step in range(STEPS):
    session.run(learn)
    if step == 0 or (step + 1) % EVERY == 0:
        value, hits = session.run([loss, hit_rate])  # one fresh batch for both
        print("step %d loss %.4f batch hit rate %.3f" % (step + 1, value, hits))
print("variables:", [v.name for v in tf.trainable_variables()])
