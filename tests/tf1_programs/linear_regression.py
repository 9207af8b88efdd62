"""The seed notebook's linear regression: fit y = 2x + noise with W, b by per-sample gradient descent.

Ported from TensorFlow 1 by changing the import line only (the data is made with numpy, as in the original).
"""
import numpy as np

import trainer as tf

np.random.seed(0)
tf.set_random_seed(0)
train_X = np.linspace(-1, 1, 100)
train_Y = 2 * train_X + np.random.randn(*train_X.shape) * 0.3  # y = 2x plus noise

# Placeholders
X = tf.placeholder("float")
Y = tf.placeholder("float")
# Model parameters
W = tf.Variable(tf.random_normal([1]), name="weight")
b = tf.Variable(tf.zeros([1]), name="bias")
# Forward structure
z = tf.multiply(X, W) + b
# Backward optimisation
cost = tf.reduce_mean(tf.square(Y - z))
learning_rate = 0.01
optimizer = tf.train.GradientDescentOptimizer(learning_rate).minimize(cost)

init = tf.global_variables_initializer()
training_epochs = 20
display_step = 2

with tf.Session() as sess:
    sess.run(init)
    plotdata = {"batchsize": [], "loss": []}
    for epoch in range(training_epochs):
        for (x, y) in zip(train_X, train_Y):
            sess.run(optimizer, feed_dict={X: x, Y: y})
        if epoch % display_step == 0:
            loss = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
            print("Epoch:", epoch + 1, "cost=", loss, "W=", sess.run(W), "b=", sess.run(b))
            if not (loss == "NA"):
                plotdata["batchsize"].append(epoch)
                plotdata["loss"].append(loss)
    print(" Finished!")
    print("cost=", sess.run(cost, feed_dict={X: train_X, Y: train_Y}), "W=", sess.run(W), "b=", sess.run(b))
    print("x=0.2, z=", sess.run(z, feed_dict={X: 0.2}))
    print("RESULT W=%.6f b=%.6f cost=%.6f" % (sess.run(W)[0], sess.run(b)[0],
                                              sess.run(cost, feed_dict={X: train_X, Y: train_Y})))
