"""Softmax regression whose loss and accuracy go to TensorBoard as scalar summaries, with the graph.

Idioms: named placeholders and variables; `tf.name_scope` blocks whose names, compared ignoring case, collide
with the summary names made later (so TF1 writes the summaries under `cost_1` and `hits_1`); `tf.summary.scalar`
and `tf.summary.merge_all`; a `tf.summary.FileWriter` given the default graph; the merged summary fetched
beside the train op every step and added with a global step count; the log directory from `sys.argv`.
"""
import sys

import tensorflow as tf

import corpus_data

log_dir = sys.argv[1] if len(sys.argv) > 1 else "tensorboard_basic_logs"
digits = corpus_data.mnist(one_hot=True)
ROUNDS, CHUNK = 5, 100

images = tf.placeholder(tf.float32, [None, 784], name="images")
onehots = tf.placeholder(tf.float32, [None, 10], name="onehots")
kernel = tf.Variable(tf.zeros([784, 10]), name="kernel")
shift = tf.Variable(tf.zeros([10]), name="shift")

with tf.name_scope("Scores"):
    chances = tf.nn.softmax(tf.matmul(images, kernel) + shift)
with tf.name_scope("Cost"):
    cost = tf.reduce_mean(-tf.reduce_sum(onehots * tf.log(chances), reduction_indices=1))
with tf.name_scope("Descent"):
    descend = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
with tf.name_scope("Hits"):
    hits = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(chances, 1), tf.argmax(onehots, 1)), tf.float32))

tf.summary.scalar("cost", cost)
tf.summary.scalar("hits", hits)
all_summaries = tf.summary.merge_all()

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(log_dir, graph=tf.get_default_graph())
    per_round = digits.train.num_examples // CHUNK
    count = 0
    for rnd in range(ROUNDS):
        for _ in range(per_round):
            batch = digits.train.next_batch(CHUNK)
            _, written = session.run([descend, all_summaries], {images: batch[0], onehots: batch[1]})
            writer.add_summary(written, count)
            count += 1
        print("round %d done after %d steps" % (rnd + 1, count))
    print("test hits:", hits.eval({images: digits.test.images, onehots: digits.test.labels}))
    print("summaries in", log_dir)
