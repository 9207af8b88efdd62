"""One graph, two towers: each tower takes its slice of the batch, all share one CNN's variables on the CPU.

Idioms: a device function for `tf.device` that sends variable ops (`tf.NodeDef` or `Operation.node_def` with op
`VariableV2`) to the parameter device and everything else to the tower's '/gpu:N'; `tf.variable_scope(...,
reuse=...)` re-entered for every tower and for an inference copy; `tf.layers.conv2d`/`max_pooling2d`/`dense`/
`dropout` and `tf.contrib.layers.flatten`; per-tower `compute_gradients`, averaged with `tf.expand_dims`,
`tf.concat` and `reduce_mean`, applied once; tensor slicing of placeholders; `allow_soft_placement`.
"""
import time

import numpy as np
import tensorflow as tf

import corpus_data

digits = corpus_data.mnist(one_hot=True)
TOWERS, PER_TOWER, STEPS, EVERY = 2, 32, 40, 10
VARIABLE_OPS = {"Variable", "VariableV2", "AutoReloadVariable"}


def network(images, training, reuse):
    with tf.variable_scope("Shared", reuse=reuse):
        net = tf.reshape(images, [-1, 28, 28, 1])
        net = tf.layers.max_pooling2d(tf.layers.conv2d(net, 8, 5, activation=tf.nn.relu), 2, 2)
        net = tf.layers.max_pooling2d(tf.layers.conv2d(net, 16, 3, activation=tf.nn.relu), 2, 2)
        net = tf.layers.dropout(tf.layers.dense(tf.contrib.layers.flatten(net), 64), rate=0.25, training=training)
        return tf.layers.dense(net, 10)


def placer(tower_device, variable_device="/cpu:0"):
    def choose(op):
        node = op if isinstance(op, tf.NodeDef) else op.node_def
        return variable_device if node.op in VARIABLE_OPS else tower_device
    return choose


def mean_of_towers(per_tower):
    merged = []
    for pairs in zip(*per_tower):
        stacked = tf.concat([tf.expand_dims(gradient, 0) for gradient, _ in pairs], 0)
        merged.append((tf.reduce_mean(stacked, 0), pairs[0][1]))
    return merged


with tf.device("/cpu:0"):
    images = tf.placeholder(tf.float32, [None, 784])
    onehots = tf.placeholder(tf.float32, [None, 10])
    adam = tf.train.AdamOptimizer(learning_rate=0.001)
    gradients, losses = [], []
    for tower in range(TOWERS):
        with tf.device(placer("/gpu:%d" % tower)):
            part = slice(tower * PER_TOWER, (tower + 1) * PER_TOWER)
            logits = network(images[part], training=True, reuse=tower > 0)
            losses.append(tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits,
                                                                                 labels=onehots[part])))
            gradients.append(adam.compute_gradients(losses[-1]))
            if tower == 0:
                guesses = tf.nn.softmax(network(images[part], training=False, reuse=True))
                hit_rate = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(guesses, 1), tf.argmax(onehots[part], 1)),
                                                  tf.float32))
    learn = adam.apply_gradients(mean_of_towers(gradients))
    shared = tf.trainable_variables()
    print("shared variables:", len(shared), shared[0].name, shared[0].device)

    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as session:
        session.run(tf.global_variables_initializer())
        for step in range(STEPS):
            xs, ys = digits.train.next_batch(PER_TOWER * TOWERS)
            began = time.time()
            session.run(learn, {images: xs, onehots: ys})
            rate = len(xs) / max(time.time() - began, 1e-9)
            if step == 0 or (step + 1) % EVERY == 0:
                loss, hits = session.run([losses[0], hit_rate], {images: xs, onehots: ys})
                print("step %d tower-0 loss %.4f hit rate %.3f (%d images/s)" % (step + 1, loss, hits, rate))
        test = digits.test
        print("held-out hit rate:", np.mean([
            session.run(hit_rate, {images: test.images[i:i + PER_TOWER], onehots: test.labels[i:i + PER_TOWER]})
            for i in range(0, test.num_examples, PER_TOWER)]))
