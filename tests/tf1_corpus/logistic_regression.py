"""Multinomial logistic regression written out by hand and trained on minibatches.

Idioms: `tf.zeros`-initialised weight and bias variables; `tf.nn.softmax` of `tf.matmul(...) + b`; a cross
entropy spelled out with `tf.log` and `reduce_sum(..., reduction_indices=1)`; `GradientDescentOptimizer`;
fetching the train op and the cost in one `sess.run`; accuracy from `tf.equal(tf.argmax, tf.argmax)` evaluated
with `Tensor.eval(feed_dict)` inside the session's `with` block.
"""
import tensorflow as tf

import corpus_data

digits = corpus_data.mnist(one_hot=True)
RATE, PASSES, CHUNK = 0.01, 8, 100

pixels = tf.placeholder(tf.float32, [None, 784])
truth = tf.placeholder(tf.float32, [None, 10])
weight = tf.Variable(tf.zeros([784, 10]))
bias = tf.Variable(tf.zeros([10]))
probabilities = tf.nn.softmax(tf.matmul(pixels, weight) + bias)
cross_entropy = tf.reduce_mean(-tf.reduce_sum(truth * tf.log(probabilities), reduction_indices=1))
step = tf.train.GradientDescentOptimizer(RATE).minimize(cross_entropy)
hits = tf.equal(tf.argmax(probabilities, 1), tf.argmax(truth, 1))

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    chunks = digits.train.num_examples // CHUNK
    for rep in range(PASSES):
        seen = []
        for _ in range(chunks):
            images, labels = digits.train.next_batch(CHUNK)
            seen.append(session.run([step, cross_entropy], {pixels: images, truth: labels})[1])
        print("pass %d mean cross entropy %.9f" % (rep, sum(seen) / chunks))
    hit_rate = tf.reduce_mean(tf.cast(hits, tf.float32))
    print("test hit rate:", hit_rate.eval({pixels: digits.test.images, truth: digits.test.labels}))
