"""A three-layer perceptron trained through explicit gradients, with histograms of everything TensorBoard shows.

Idioms: `tf.gradients` over `tf.trainable_variables()` zipped into `apply_gradients`; `tf.summary.histogram`
of activations inside a name scope and of each variable and gradient named by `var.name` (its ':0' cleaned by
TF1 into '_0'); scalar summaries whose names collide, ignoring case, with earlier scopes; `merge_all`; a
`FileWriter` with the graph; accuracy with `Tensor.eval`; the log directory from `sys.argv`.
"""
import sys

import tensorflow as tf

import corpus_data

log_dir = sys.argv[1] if len(sys.argv) > 1 else "tensorboard_advanced_logs"
digits = corpus_data.mnist(one_hot=True)
ROUNDS, CHUNK, WIDTH = 3, 100, 64

images = tf.placeholder(tf.float32, [None, 784], name="images")
onehots = tf.placeholder(tf.float32, [None, 10], name="onehots")
shapes = [(784, WIDTH), (WIDTH, WIDTH), (WIDTH, 10)]
kernels = [tf.Variable(tf.random_normal(s), name="k%d" % n) for n, s in enumerate(shapes)]
shifts = [tf.Variable(tf.random_normal(s[1:]), name="s%d" % n) for n, s in enumerate(shapes)]

with tf.name_scope("Net"):
    signal = images
    for n in range(2):
        signal = tf.nn.relu(tf.add(tf.matmul(signal, kernels[n]), shifts[n]))
        tf.summary.histogram("act%d" % n, signal)
    scores = tf.add(tf.matmul(signal, kernels[2]), shifts[2])
with tf.name_scope("Cost"):
    cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=scores, labels=onehots))
with tf.name_scope("Descent"):
    trainable = tf.trainable_variables()
    pairs = list(zip(tf.gradients(cost, trainable), trainable))
    descend = tf.train.GradientDescentOptimizer(0.01).apply_gradients(grads_and_vars=pairs)
with tf.name_scope("Hits"):
    hits = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(scores, 1), tf.argmax(onehots, 1)), tf.float32))

tf.summary.scalar("cost", cost)
tf.summary.scalar("hits", hits)
for gradient, variable in pairs:
    tf.summary.histogram(variable.name, variable)
    tf.summary.histogram(variable.name + "/gradient", gradient)
all_summaries = tf.summary.merge_all()

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(log_dir, graph=tf.get_default_graph())
    per_round = digits.train.num_examples // CHUNK
    for rnd in range(ROUNDS):
        total = 0.0
        for n in range(per_round):
            batch = digits.train.next_batch(CHUNK)
            _, c, written = session.run([descend, cost, all_summaries], {images: batch[0], onehots: batch[1]})
            writer.add_summary(written, rnd * per_round + n)
            total += c
        print("round %d mean cost %.6f" % (rnd + 1, total / per_round))
    print("test hits:", hits.eval({images: digits.test.images, onehots: digits.test.labels}))
