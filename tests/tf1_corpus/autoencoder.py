"""An auto-encoder built from raw tf.Variables (tf.random_normal starts) and tf.nn.sigmoid layers: 784 pixels
squeezed to a 128-wide code and expanded back, trained with tf.train.RMSPropOptimizer on the mean squared error
of the reconstruction, fed batch by batch through a placeholder; the code's static shape keeps its None batch."""
import numpy as np
import tensorflow as tf

import corpus_data

PIXELS, WIDTHS = 784, (256, 128)
STEPS, BATCH, REPORT_EVERY, SHOWN = 300, 256, 50, 10


def sigmoid_stack(inputs, sizes):
    """Dense sigmoid layers of fresh variables, one per entry of `sizes`."""
    for size in sizes:
        kernel = tf.Variable(tf.random_normal([inputs.get_shape().as_list()[1], size]))
        inputs = tf.nn.sigmoid(tf.matmul(inputs, kernel) + tf.Variable(tf.random_normal([size])))
    return inputs


images = tf.placeholder(tf.float32, [None, PIXELS])
code = sigmoid_stack(images, WIDTHS)
rebuilt = sigmoid_stack(code, WIDTHS[-2::-1] + (PIXELS,))
error = tf.reduce_mean(tf.square(images - rebuilt))
learn = tf.train.RMSPropOptimizer(0.01).minimize(error)

digits = corpus_data.mnist(one_hot=True)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for step in range(1, STEPS + 1):
        batch, _ = digits.train.next_batch(BATCH)
        _, value = session.run([learn, error], {images: batch})
        if step == 1 or step % REPORT_EVERY == 0:
            print("step %d reconstruction loss %.5f" % (step, value))
    held_out, _ = digits.test.next_batch(SHOWN)
    copies = session.run(rebuilt, {images: held_out})
    print("held-out squared error over %d images: %.5f" % (SHOWN, np.mean((copies - held_out) ** 2)))
    print("code shape:", code.get_shape().as_list())
