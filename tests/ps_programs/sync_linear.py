# Synchronous PS training (tf.train.SyncReplicasOptimizer), float64, 2 ps tasks: each worker feeds its half
# of every global batch. Role from argv: `python sync_linear.py ps|worker TASK STEPS OUT.npz [CRASH_AT]`.
# The chief writes the final variables to OUT.npz for comparison with one process on the global batch.
# With CRASH_AT, worker 1 raises at that step: the chief would wait forever for its half of the round.
import sys

import numpy as np
import trainer as tf

job_name, task_index, steps, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
crash_at = int(sys.argv[5]) if len(sys.argv) > 5 else None
cluster = tf.train.ClusterSpec({"ps": ["localhost:2220", "localhost:2221"],
                                "worker": ["localhost:2222", "localhost:2223"]})
server = tf.train.Server(cluster, job_name=job_name, task_index=task_index)
if job_name == "ps":
    server.join()

rng = np.random.default_rng(0)
data_x = rng.uniform(-1, 1, (steps, 8, 3))
data_y = data_x @ np.array([[1.5], [-2.0], [0.5]]) + 0.1
half = slice(4 * task_index, 4 * task_index + 4)

with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task_index, cluster=cluster)):
    X = tf.placeholder(tf.float64, [None, 3])
    Y = tf.placeholder(tf.float64, [None, 1])
    W = tf.Variable(np.full((3, 1), 0.3), name="weight")
    b = tf.Variable(np.zeros(1), name="bias")
    global_step = tf.train.get_or_create_global_step()
    cost = tf.reduce_mean(tf.square(Y - (tf.matmul(X, W) + b)))
    opt = tf.train.SyncReplicasOptimizer(tf.train.MomentumOptimizer(0.1, 0.9), replicas_to_aggregate=2,
                                         total_num_replicas=2)
    train_op = opt.minimize(cost, global_step=global_step)

sv = tf.train.Supervisor(is_chief=(task_index == 0), logdir=None, init_op=tf.global_variables_initializer(),
                         summary_op=None, global_step=global_step, recovery_wait_secs=1)
with sv.managed_session(server.target) as sess:
    step = sess.run(global_step)
    while step < steps:
        if task_index == 1 and step == crash_at:
            raise RuntimeError("worker 1 fails on purpose at step %d" % step)
        sess.run(train_op, feed_dict={X: data_x[step][half], Y: data_y[step][half]})
        step = sess.run(global_step)
    if task_index == 0:
        np.savez(out, W=sess.run(W), b=sess.run(b), step=sess.run(global_step))
sv.stop()
