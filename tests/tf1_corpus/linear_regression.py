"""Fit a line by stochastic gradient descent, one fed sample per step.

Idioms: untyped `tf.placeholder("float")` scalars fed one Python float at a time and whole arrays at others;
`tf.Variable` started from unseeded `numpy.random.randn()`; `tf.add`/`tf.multiply`/`tf.pow`/`tf.reduce_sum`
for a half mean squared error; `GradientDescentOptimizer.minimize`; `sess.run` of single variables; a second
cost tensor built after training and evaluated on held-out points.
"""
import numpy as np
import tensorflow as tf

STEP_SIZE = 0.03
EPOCHS = 600
REPORT_EVERY = 150

points = np.random.RandomState(0)
inputs = np.linspace(0.5, 8.0, 19)
targets = -0.4 * inputs + 3.0 + points.normal(0, 0.15, size=inputs.size)
held_out_inputs = np.linspace(1.0, 7.5, 9)
held_out_targets = -0.4 * held_out_inputs + 3.0 + points.normal(0, 0.15, size=held_out_inputs.size)

feature = tf.placeholder("float")
target = tf.placeholder("float")
slope = tf.Variable(np.random.randn(), name="slope")
offset = tf.Variable(np.random.randn(), name="offset")
fitted = tf.add(tf.multiply(feature, slope), offset)


def half_mse(count):
    return tf.reduce_sum(tf.pow(fitted - target, 2)) / (2 * count)


train_cost = half_mse(inputs.size)
descend = tf.train.GradientDescentOptimizer(STEP_SIZE).minimize(train_cost)

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    whole_set = {feature: inputs, target: targets}
    for epoch in range(1, EPOCHS + 1):
        for one_x, one_y in zip(inputs, targets):
            session.run(descend, {feature: one_x, target: one_y})
        if epoch % REPORT_EVERY == 0:
            print("after epoch %d: cost %.9f slope %s offset %s"
                  % (epoch, session.run(train_cost, whole_set), session.run(slope), session.run(offset)))
    final_cost = session.run(train_cost, whole_set)
    print("fit cost:", final_cost)
    held_out_cost = session.run(half_mse(held_out_inputs.size),
                                {feature: held_out_inputs, target: held_out_targets})
    print("held-out cost:", held_out_cost)
    print("gap:", abs(final_cost - held_out_cost))
