# Mirrors aymericdamien/TensorFlow-Examples: examples/5_DataManagement/tensorflow_dataset_api.py
"""Numpy arrays fed through tf.data: from_tensor_slices, repeat, batch, prefetch, an initializable iterator
whose get_next() is the network input; a tf.layers CNN (contrib flatten) built twice in one reused scope.

Changed from the original: synthetic MNIST-shaped data, 8/16 filters and 64 dense units (32/64/1024 in the
original), 60 steps of 64 images.
"""
from __future__ import print_function

import tensorflow as tf

import corpus_data

mnist = corpus_data.mnist(one_hot=True)

learning_rate = 0.001
num_steps = 60
batch_size = 64
display_step = 20

n_input = 784
n_classes = 10
dropout = 0.75

sess = tf.Session()

dataset = tf.data.Dataset.from_tensor_slices(
    (mnist.train.images, mnist.train.labels))
dataset = dataset.repeat()
dataset = dataset.batch(batch_size)
dataset = dataset.prefetch(batch_size)

iterator = dataset.make_initializable_iterator()
sess.run(iterator.initializer)

X, Y = iterator.get_next()


def conv_net(x, n_classes, dropout, reuse, is_training):
    with tf.variable_scope('ConvNet', reuse=reuse):
        x = tf.reshape(x, shape=[-1, 28, 28, 1])

        conv1 = tf.layers.conv2d(x, 8, 5, activation=tf.nn.relu)
        conv1 = tf.layers.max_pooling2d(conv1, 2, 2)

        conv2 = tf.layers.conv2d(conv1, 16, 3, activation=tf.nn.relu)
        conv2 = tf.layers.max_pooling2d(conv2, 2, 2)

        fc1 = tf.contrib.layers.flatten(conv2)

        fc1 = tf.layers.dense(fc1, 64)
        fc1 = tf.layers.dropout(fc1, rate=dropout, training=is_training)

        out = tf.layers.dense(fc1, n_classes)
        out = tf.nn.softmax(out) if not is_training else out

    return out


logits_train = conv_net(X, n_classes, dropout, reuse=False, is_training=True)
logits_test = conv_net(X, n_classes, dropout, reuse=True, is_training=False)

loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
    logits=logits_train, labels=Y))
optimizer = tf.train.AdamOptimizer(learning_rate=learning_rate)
train_op = optimizer.minimize(loss_op)

correct_pred = tf.equal(tf.argmax(logits_test, 1), tf.argmax(Y, 1))
accuracy = tf.reduce_mean(tf.cast(correct_pred, tf.float32))

init = tf.global_variables_initializer()

sess.run(init)

for step in range(1, num_steps + 1):

    sess.run(train_op)

    if step % display_step == 0 or step == 1:
        loss, acc = sess.run([loss_op, accuracy])
        print("Step " + str(step) + ", Minibatch Loss= " +
              "{:.4f}".format(loss) + ", Training Accuracy= " +
              "{:.3f}".format(acc))

print("Optimization Finished!")
print("variables:", [v.name for v in tf.trainable_variables()])
