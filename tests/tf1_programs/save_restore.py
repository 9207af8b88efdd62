"""Saving and restoring: train a little, save with a global step, rebuild the graph in a new process-like
fresh graph, restore from tf.train.latest_checkpoint and compare; then the Saver({name: var}) dict form.

Ported from TensorFlow 1 by changing the import line only.
"""
import os

import numpy as np

import trainer as tf

flags = tf.app.flags
flags.DEFINE_string('model_dir', 'saved_model', 'Where the checkpoints go.')
flags.DEFINE_integer('train_steps', 50, 'Training steps before saving.')
FLAGS = flags.FLAGS


def build_model():
    """A linear model y = xW + b; returns its pieces."""
    x = tf.placeholder(tf.float32, [None, 3], name='x')
    y = tf.placeholder(tf.float32, [None, 1], name='y')
    W = tf.Variable(tf.zeros([3, 1]), name='W')
    b = tf.Variable(tf.zeros([1]), name='b')
    global_step = tf.Variable(0, name='global_step', trainable=False)
    epochs = tf.Variable(0, dtype=tf.int16, name='epochs', trainable=False)
    count_epoch = tf.assign_add(epochs, 1)
    pred = tf.matmul(x, W) + b
    loss = tf.reduce_mean(tf.square(pred - y))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
    return x, y, W, b, global_step, epochs, count_epoch, loss, train_op


def main(_):
    rng = np.random.RandomState(0)
    data_x = rng.randn(64, 3).astype(np.float32)
    data_y = data_x.dot(np.array([[1.0], [-2.0], [0.5]], np.float32)) + 0.3

    # 1. Train and save.
    with tf.Graph().as_default():
        x, y, W, b, global_step, epochs, count_epoch, loss, train_op = build_model()
        saver = tf.train.Saver(max_to_keep=3)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(FLAGS.train_steps):
                sess.run(train_op, feed_dict={x: data_x, y: data_y})
                if (step + 1) % 10 == 0:
                    sess.run(count_epoch)
                    save_path = saver.save(sess, os.path.join(FLAGS.model_dir, 'model.ckpt'),
                                           global_step=global_step)
            print('Model saved in path: %s' % save_path)
            trained_W, trained_b, trained_loss = sess.run([W, b, loss], feed_dict={x: data_x, y: data_y})
            print('trained loss %.6f W %s b %s' % (trained_loss, trained_W.ravel(), trained_b))

    # 2. A fresh graph: build the same model, restore the latest checkpoint, nothing initialized.
    tf.reset_default_graph()
    x, y, W, b, global_step, epochs, count_epoch, loss, train_op = build_model()
    saver = tf.train.Saver()
    latest = tf.train.latest_checkpoint(FLAGS.model_dir)
    print('latest checkpoint: %s' % latest)
    with tf.Session() as sess:
        saver.restore(sess, latest)
        restored_W, restored_b, restored_step, restored_epochs = sess.run([W, b, global_step, epochs])
        print('restored global step %d' % restored_step)
        print('restored epochs %d (%s)' % (restored_epochs, epochs.dtype.base_dtype.name))
        print('restored values equal: %s' % (np.array_equal(restored_W, trained_W)
                                             and np.array_equal(restored_b, trained_b)))

    # 3. The dict form: save only W under a chosen name, load it into a differently named variable.
    with tf.Graph().as_default():
        W1 = tf.Variable(tf.constant(trained_W), name='weights_to_export')
        exporter = tf.train.Saver({'exported/W': W1})
        with tf.Session() as sess:
            sess.run(W1.initializer)
            path = exporter.save(sess, os.path.join(FLAGS.model_dir, 'exported.ckpt'))
    names = [name for name, _ in tf.train.list_variables(path)]
    print('exported names: %s' % names)
    with tf.Graph().as_default():
        other = tf.Variable(tf.zeros([3, 1]), name='some_other_name')
        importer = tf.train.Saver({'exported/W': other})
        with tf.Session() as sess:
            importer.restore(sess, path)
            print('dict-form restore equal: %s' % np.array_equal(sess.run(other), trained_W))


if __name__ == '__main__':
    tf.app.run()
