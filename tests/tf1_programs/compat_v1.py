"""A TF2-era script that runs TF1 code through tf.compat.v1, the header such scripts carry.

Ported by changing `import tensorflow.compat.v1 as tf` to `import trainer.compat.v1 as tf`.
"""
import numpy as np

import trainer.compat.v1 as tf

tf.disable_v2_behavior()


def main(_):
    rng = np.random.RandomState(0)
    centers = np.array([[0.0, 0.0], [3.0, 3.0], [0.0, 4.0]], np.float32)
    labels_np = rng.randint(3, size=600)
    features_np = (centers[labels_np] + rng.randn(600, 2) * 0.5).astype(np.float32)

    tf.set_random_seed(0)
    features = tf.placeholder(tf.float32, shape=[None, 2])
    labels = tf.placeholder(tf.int64, shape=[None])
    with tf.variable_scope('classifier'):
        hidden = tf.layers.dense(features, 16, activation=tf.nn.relu,
                                 kernel_initializer=tf.glorot_uniform_initializer(seed=1))
        logits = tf.layers.dense(hidden, 3)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, global_step=global_step)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, axis=1), labels), tf.float32))

    assert not tf.executing_eagerly()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(200):
            _, loss_value = sess.run([train_op, loss], feed_dict={features: features_np, labels: labels_np})
            if step % 50 == 0:
                tf.logging.info('step %d loss %.4f', step, loss_value)
        acc, step = sess.run([accuracy, global_step], feed_dict={features: features_np, labels: labels_np})
    print('global step %d accuracy %.4f loss %.6f' % (step, acc, loss_value))


if __name__ == '__main__':
    tf.app.run(main)
