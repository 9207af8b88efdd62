"""Binary logistic regression on two Gaussian clouds made with numpy, trained with
sigmoid_cross_entropy_with_logits and plain gradient descent, mini-batch by mini-batch.

Ported from TensorFlow 1 by changing the import line only.
"""
import numpy as np

import trainer as tf


def generate(sample_size, mean, cov, diff, seed=0):
    """Two classes: one at `mean`, the other shifted by `diff`; labels 0/1 as a column."""
    rng = np.random.RandomState(seed)
    samples_per_class = sample_size // 2
    X0 = rng.multivariate_normal(mean, cov, samples_per_class)
    X1 = rng.multivariate_normal(mean + diff, cov, samples_per_class)
    X = np.concatenate((X0, X1)).astype(np.float32)
    Y = np.concatenate((np.zeros(samples_per_class), np.ones(samples_per_class))).astype(np.float32)
    order = rng.permutation(len(X))
    return X[order], Y[order].reshape(-1, 1)


input_dim = 2
mean = np.random.RandomState(1).randn(input_dim)
cov = np.eye(input_dim)
X, Y = generate(1000, mean, cov, np.array([3.0, 3.0]))

input_features = tf.placeholder(tf.float32, [None, input_dim])
input_labels = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable(tf.random_normal([input_dim, 1], seed=1), name="weight")
b = tf.Variable(tf.zeros([1]), name="bias")

logits = tf.matmul(input_features, W) + b
output = tf.nn.sigmoid(logits)
cross_entropy = tf.nn.sigmoid_cross_entropy_with_logits(labels=input_labels, logits=logits)
loss = tf.reduce_mean(cross_entropy)
err = tf.reduce_mean(tf.square(input_labels - output))
optimizer = tf.train.GradientDescentOptimizer(0.1)
train = optimizer.minimize(loss)
predicted = tf.cast(output > 0.5, tf.float32)
accuracy = tf.reduce_mean(tf.cast(tf.equal(predicted, input_labels), tf.float32))

maxEpochs = 20
minibatchSize = 25

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(maxEpochs):
        sumerr = 0
        for i in range(len(Y) // minibatchSize):
            x1 = X[i * minibatchSize:(i + 1) * minibatchSize, :]
            y1 = Y[i * minibatchSize:(i + 1) * minibatchSize, :]
            _, lossval, outputval, errval = sess.run([train, loss, output, err],
                                                     feed_dict={input_features: x1, input_labels: y1})
            sumerr = sumerr + errval
        print("Epoch:", '%04d' % (epoch + 1), "cost=", "{:.9f}".format(lossval),
              "err=", sumerr / (len(Y) // minibatchSize))
    final_loss, final_accuracy = sess.run([loss, accuracy], feed_dict={input_features: X, input_labels: Y})
    print("RESULT loss=%.6f accuracy=%.6f" % (final_loss, final_accuracy))
