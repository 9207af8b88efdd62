# A chief whose daemon thread still reads the ps variables when the program ends (no sv.stop()): the
# worker's goodbye must wait for that read's answer, or the ps blocks sending it to a process that is gone.
# `python daemon_at_exit.py ps|worker TASK`; 1 ps, 2 workers.
import faulthandler
import sys
import threading

import numpy as np
import trainer as tf

faulthandler.dump_traceback_later(20, exit=True)  # the job takes seconds: past this a rank is stuck
job_name, task_index = sys.argv[1], int(sys.argv[2])
cluster = tf.train.ClusterSpec({"ps": ["ps0"], "worker": ["w0", "w1"]})
server = tf.train.Server(cluster, job_name=job_name, task_index=task_index)
if job_name == "ps":
    server.join()

with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task_index, cluster=cluster)):
    W = tf.Variable(np.zeros((256, 256), np.float32), name="weight")  # 256 KiB: MPICH sends it by rendezvous
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(W * W), global_step=global_step)

sv = tf.train.Supervisor(is_chief=(task_index == 0), logdir=None, summary_op=None, global_step=global_step,
                         recovery_wait_secs=0.1)
sess = sv.prepare_or_wait_for_session(server.target)
if task_index == 0:
    threading.Thread(target=lambda: [sess.run(W) for _ in iter(int, 1)], daemon=True).start()
for _ in range(20):
    sess.run(train_op)
print("finished worker", task_index)
