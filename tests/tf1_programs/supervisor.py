"""The seed notebook's Supervisor program (code 4-15) run as a single chief process: a Supervisor manages
initialization, checkpoints every few seconds and summaries; training writes summaries through
sv.summary_computed and saves a final checkpoint through sv.saver.

Ported from TensorFlow 1 by changing the import line; the ps/worker cluster of the original becomes one
process (is_chief=True, no server target), and the epochs are fewer.
"""
import numpy as np

import trainer as tf

np.random.seed(0)
tf.set_random_seed(0)
train_X = np.linspace(-1, 1, 100)
train_Y = 2 * train_X + np.random.randn(*train_X.shape) * 0.3  # y = 2x plus noise

X = tf.placeholder("float")
Y = tf.placeholder("float")
W = tf.Variable(tf.truncated_normal([1]), name='weight')
b = tf.Variable(tf.truncated_normal([1]), name='bias')

global_step = tf.train.get_or_create_global_step()

z = tf.multiply(X, W) + b
tf.summary.histogram('z', z)
cost = tf.reduce_mean(tf.square(Y - z))
tf.summary.scalar('loss_function', cost)
learning_rate = 0.01
optimizer = tf.train.GradientDescentOptimizer(learning_rate).minimize(cost, global_step=global_step)

saver = tf.train.Saver(max_to_keep=1)
merged_summary_op = tf.summary.merge_all()
init = tf.global_variables_initializer()

training_epochs = 12
display_step = 200
task_index = 0

sv = tf.train.Supervisor(is_chief=(task_index == 0),
                         logdir="log/super/",
                         init_op=init,
                         summary_op=None,
                         saver=saver,
                         global_step=global_step,
                         save_model_secs=5)

with sv.managed_session() as sess:
    print("sess ok")
    print(global_step.eval(session=sess))
    epoch = 0
    for epoch in range(global_step.eval(session=sess), training_epochs * len(train_X)):
        if sv.should_stop():
            break
        x, y = train_X[epoch % len(train_X)], train_Y[epoch % len(train_Y)]
        _, epoch = sess.run([optimizer, global_step], feed_dict={X: x, Y: y})
        summary_str = sess.run(merged_summary_op, feed_dict={X: x, Y: y})
        sv.summary_computed(sess, summary_str, global_step=epoch)
        if epoch % display_step == 0:
            loss = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
            print("Epoch:", epoch + 1, "cost=", loss, "W=", sess.run(W), "b=", sess.run(b))
    print(" Finished!")
    print("RESULT W=%.6f b=%.6f step=%d" % (sess.run(W)[0], sess.run(b)[0], sess.run(global_step)))
    sv.saver.save(sess, "log/mnist_with_summaries/" + "sv.cpk", global_step=epoch)

sv.stop()
