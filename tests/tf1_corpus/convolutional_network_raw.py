"""A convolutional classifier of raw variables: tf.nn.conv2d with tf.nn.bias_add and relu, tf.nn.max_pool to
halve the side twice, a dense layer with tf.nn.dropout whose keep probability is a placeholder (below 1 while
training, 1 when measuring), softmax cross entropy minimised by Adam, and accuracy from tf.argmax/tf.equal."""
import tensorflow as tf

import corpus_data

CLASSES, KEEP = 10, 0.75
STEPS, BATCH, REPORT_EVERY = 120, 64, 20


def weight(shape):
    return tf.Variable(tf.random_normal(shape))


def conv_relu_pool(maps, filters):
    """A 5x5 SAME convolution with bias and relu, then a 2x2 max pool of stride 2."""
    kernel = weight([5, 5, maps.get_shape().as_list()[-1], filters])
    maps = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(maps, kernel, [1, 1, 1, 1], "SAME"), weight([filters])))
    return tf.nn.max_pool(maps, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")


pixels = tf.placeholder(tf.float32, [None, 784])
truth = tf.placeholder(tf.float32, [None, CLASSES])
keep = tf.placeholder(tf.float32)

maps = conv_relu_pool(conv_relu_pool(tf.reshape(pixels, [-1, 28, 28, 1]), 8), 16)
flat = tf.reshape(maps, [-1, 7 * 7 * 16])
hidden = tf.nn.dropout(tf.nn.relu(tf.matmul(flat, weight([7 * 7 * 16, 64])) + weight([64])), keep)
scores = tf.matmul(hidden, weight([64, CLASSES])) + weight([CLASSES])

loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=scores, labels=truth))
learn = tf.train.AdamOptimizer(0.001).minimize(loss)
hits = tf.equal(tf.argmax(tf.nn.softmax(scores), 1), tf.argmax(truth, 1))
accuracy = tf.reduce_mean(tf.cast(hits, tf.float32))

digits = corpus_data.mnist(one_hot=True)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for step in range(1, STEPS + 1):
        x, y = digits.train.next_batch(BATCH)
        session.run(learn, {pixels: x, truth: y, keep: KEEP})
        if step == 1 or step % REPORT_EVERY == 0:
            got_loss, got_accuracy = session.run([loss, accuracy], {pixels: x, truth: y, keep: 1.0})
            print("step %d: batch loss %.4f, batch accuracy %.3f" % (step, got_loss, got_accuracy))
    test = {pixels: digits.test.images[:256], truth: digits.test.labels[:256], keep: 1.0}
    print("accuracy on 256 test images: %.4f" % session.run(accuracy, test))
