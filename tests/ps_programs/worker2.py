# The seed notebook's listing 4-17 (worker2), written for ringflow: only the import line differs from TF1.
# Run as one job: mpiexec -n 1 python ps.py : -n 1 python worker.py : -n 1 python worker2.py
# Optional arguments: the number of global training steps (the listing trains "forever") and save_model_secs.
import sys

import numpy as np
import trainer as tf

# The tasks' addresses (names of the tasks; MPI carries the messages)
strps_hosts = "localhost:1681"
strworker_hosts = "localhost:1682,localhost:1683"

# This program's role
strjob_name = "worker"
task_index = 1

ps_hosts = strps_hosts.split(',')
worker_hosts = strworker_hosts.split(',')
cluster_spec = tf.train.ClusterSpec({'ps': ps_hosts, 'worker': worker_hosts})
server = tf.train.Server({'ps': ps_hosts, 'worker': worker_hosts}, job_name=strjob_name, task_index=task_index)

train_X = np.linspace(-1, 1, 100)
np.random.seed(task_index)
train_Y = 2 * train_X + np.random.randn(*train_X.shape) * 0.3  # y = 2x plus noise

# The ps waits for the workers
if strjob_name == 'ps':
    print('waiting....')
    server.join()

with tf.device(tf.train.replica_device_setter(
        worker_device='/job:worker/task:{0}'.format(task_index),
        cluster=cluster_spec)):
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

training_steps = int(sys.argv[1]) if len(sys.argv) > 1 else 600
display_step = 100
save_model_secs = float(sys.argv[2]) if len(sys.argv) > 2 else 5

sv = tf.train.Supervisor(is_chief=(task_index == 0),  # worker 0 is the chief
                         logdir="log/super/",
                         init_op=init,
                         summary_op=None,
                         saver=saver,
                         global_step=global_step,
                         save_model_secs=save_model_secs,
                         recovery_wait_secs=1)

with sv.managed_session(server.target) as sess:
    print("sess ok")
    print("start step", global_step.eval(session=sess))
    epoch = global_step.eval(session=sess)
    while epoch < training_steps:
        for (x, y) in zip(train_X, train_Y):
            _, epoch = sess.run([optimizer, global_step], feed_dict={X: x, Y: y})
            if sv.is_chief:
                summary_str = sess.run(merged_summary_op, feed_dict={X: x, Y: y})
                sv.summary_computed(sess, summary_str, global_step=epoch)
            if epoch % display_step == 0:
                loss = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
                print("Epoch:", epoch + 1, "cost=", loss, "W=", sess.run(W), "b=", sess.run(b))
            if epoch >= training_steps:
                break
    print(" Finished!")
    print("final", strjob_name, task_index, "W=", float(sess.run(W)[0]), "b=", float(sess.run(b)[0]),
          "step=", int(global_step.eval(session=sess)))
    if sv.is_chief:
        # The listing saves to another folder; with max_to_keep=1 that deletes the periodic checkpoint the
        # restart needs (TF1 too), so the final save goes to the Supervisor's logdir.
        sv.saver.save(sess, "log/super/" + "sv.cpk", global_step=epoch)

sv.stop()
