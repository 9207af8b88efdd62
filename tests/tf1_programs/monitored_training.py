"""A MonitoredTrainingSession program: global step, StopAtStepHook, LoggingTensorHook, NanTensorHook and
automatic checkpoints in checkpoint_dir. Run it twice with the same directory: the second run restores the
last checkpoint, runs one step (StopAtStepHook checks after each step) and stops.

Ported from TensorFlow 1 by changing the import line only.
"""
import numpy as np

import trainer as tf

flags = tf.app.flags
flags.DEFINE_string('checkpoint_dir', 'train_dir', 'Checkpoints and summaries.')
flags.DEFINE_integer('last_step', 200, 'Global step at which training stops.')
flags.DEFINE_integer('batch_size', 32, 'Examples per step.')
FLAGS = flags.FLAGS


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    rng = np.random.RandomState(0)
    true_w = np.array([[2.0], [-1.0], [0.5], [3.0]], np.float32)

    features = tf.placeholder(tf.float32, [None, 4], name='features')
    targets = tf.placeholder(tf.float32, [None, 1], name='targets')
    hidden = tf.layers.dense(features, 16, activation=tf.nn.tanh, name='hidden')
    prediction = tf.layers.dense(hidden, 1, name='output')
    loss = tf.losses.mean_squared_error(labels=targets, predictions=prediction)
    tf.summary.scalar('loss', loss)

    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=global_step)

    hooks = [tf.train.StopAtStepHook(last_step=FLAGS.last_step),
             tf.train.NanTensorHook(loss),
             tf.train.LoggingTensorHook({'step': global_step, 'loss': loss}, every_n_iter=50)]
    print('resuming from %s' % tf.train.latest_checkpoint(FLAGS.checkpoint_dir))
    steps_this_run = 0
    with tf.train.MonitoredTrainingSession(checkpoint_dir=FLAGS.checkpoint_dir, hooks=hooks,
                                           save_summaries_steps=50) as mon_sess:
        while not mon_sess.should_stop():
            x = rng.randn(FLAGS.batch_size, 4).astype(np.float32)
            y = x.dot(true_w)
            _, loss_value = mon_sess.run([train_op, loss], feed_dict={features: x, targets: y})
            steps_this_run += 1
    print('ran %d steps, last loss %.6f' % (steps_this_run, loss_value))
    print('latest checkpoint %s' % tf.train.latest_checkpoint(FLAGS.checkpoint_dir))


if __name__ == '__main__':
    tf.app.run()
