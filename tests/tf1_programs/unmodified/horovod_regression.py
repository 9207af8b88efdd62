"""An unmodified TensorFlow 1 + Horovod program: data-parallel linear regression, y = 3x + 1 on each rank's own
shard, with Horovod's DistributedOptimizer and BroadcastGlobalVariablesHook in a MonitoredTrainingSession.

It imports tensorflow and horovod.tensorflow itself; the tests run it with
`mpiexec -n 2 python -m trainer.as_tensorflow horovod_regression.py`.
"""
import numpy as np
import tensorflow as tf
import horovod.tensorflow as hvd

hvd.init()
rng = np.random.RandomState(hvd.rank())
x_data = rng.uniform(-1, 1, (64, 1)).astype(np.float32)
y_data = 3 * x_data + 1

x = tf.placeholder(tf.float32, [None, 1])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.get_variable("w", [1, 1], initializer=tf.random_normal_initializer(seed=hvd.rank()))
b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
global_step = tf.train.get_or_create_global_step()
opt = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.2))
train_op = opt.minimize(loss, global_step=global_step)
rank_sum = hvd.allreduce(tf.constant(float(hvd.rank())), op=hvd.Sum)

hooks = [hvd.BroadcastGlobalVariablesHook(0), tf.train.StopAtStepHook(last_step=200)]
with tf.train.MonitoredTrainingSession(hooks=hooks) as sess:
    while not sess.should_stop():
        _, w_value, b_value, total = sess.run([train_op, w, b, rank_sum], feed_dict={x: x_data, y: y_data})
print("rank %d of %d: w %.6f b %.6f rank sum %.1f" % (hvd.rank(), hvd.size(), w_value[0, 0], b_value[0], total))
