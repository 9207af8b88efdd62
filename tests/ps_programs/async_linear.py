# Asynchronous PS training (TF1's default: each worker's update is applied on arrival), one ps task, two
# workers, each on its own half of a fixed linear-regression data set, full batch, float64.
# Role from argv: `python async_linear.py ps|worker TASK STEPS OUT.npz`. The chief writes the final variables
# and the loss on all the data, before and after, to OUT.npz.
import sys

import numpy as np
import trainer as tf

job_name, task_index, steps, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
cluster = tf.train.ClusterSpec({"ps": ["localhost:2230"], "worker": ["localhost:2231", "localhost:2232"]})
server = tf.train.Server(cluster, job_name=job_name, task_index=task_index)
if job_name == "ps":
    server.join()

rng = np.random.default_rng(1)
data_x = rng.uniform(-1, 1, (64, 3))
data_y = data_x @ np.array([[1.5], [-2.0], [0.5]]) + 0.1 + 0.05 * rng.standard_normal((64, 1))
half = slice(32 * task_index, 32 * task_index + 32)

with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task_index, cluster=cluster)):
    X = tf.placeholder(tf.float64, [None, 3])
    Y = tf.placeholder(tf.float64, [None, 1])
    W = tf.Variable(np.zeros((3, 1)), name="weight")
    b = tf.Variable(np.zeros(1), name="bias")
    global_step = tf.train.get_or_create_global_step()
    cost = tf.reduce_mean(tf.square(Y - (tf.matmul(X, W) + b)))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(cost, global_step=global_step)

sv = tf.train.Supervisor(is_chief=(task_index == 0), logdir=None, init_op=tf.global_variables_initializer(),
                         summary_op=None, global_step=global_step, recovery_wait_secs=0.2)
with sv.managed_session(server.target) as sess:
    first = sess.run(cost, feed_dict={X: data_x, Y: data_y})
    step = sess.run(global_step)
    while step < steps:
        _, step = sess.run([train_op, global_step], feed_dict={X: data_x[half], Y: data_y[half]})
    if task_index == 0:
        np.savez(out, W=sess.run(W), b=sess.run(b), step=sess.run(global_step), first=first,
                 last=sess.run(cost, feed_dict={X: data_x, Y: data_y}))
sv.stop()
