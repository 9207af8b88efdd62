"""Cluster images with contrib's KMeans, then name each cluster by the labels that fall in it.

Idioms: `tf.contrib.factorization.KMeans` (cosine distance, mini-batch updates) and its `training_graph()`
tuple, whose length differs between TF versions; its init op run with the data fed; `reduce_mean` of the
scores; a numpy vote turned back into a graph constant by `tf.convert_to_tensor` and looked up with
`tf.nn.embedding_lookup`; a plain `tf.Session()` without a `with` block.
"""
import numpy as np
import tensorflow as tf
from tensorflow.contrib.factorization import KMeans

import corpus_data

CLUSTERS, ROUNDS = 25, 20
digits = corpus_data.mnist(one_hot=True)
images = tf.placeholder(tf.float32, shape=[None, 784])
onehots = tf.placeholder(tf.float32, shape=[None, 10])

model = KMeans(inputs=images, num_clusters=CLUSTERS, distance_metric="cosine", use_mini_batch=True)
parts = model.training_graph()
# seven parts (with the centres variable) in newer TF, six in older
assignments, distances, start_centres, update = parts[1][0], parts[2], parts[-2], parts[-1]
mean_distance = tf.reduce_mean(distances)

session = tf.Session()
everything = {images: digits.train.images}
session.run(tf.global_variables_initializer(), everything)
session.run(start_centres, everything)
for round_number in range(ROUNDS):
    _, spread, owner = session.run([update, mean_distance, assignments], everything)
    if round_number in (0, 9, 19):
        print("round %d mean cosine distance %f" % (round_number + 1, spread))

votes = np.zeros((CLUSTERS, 10))
np.add.at(votes, owner, digits.train.labels)
named = tf.nn.embedding_lookup(tf.convert_to_tensor(votes.argmax(axis=1)), assignments)
agreement = tf.reduce_mean(tf.cast(tf.equal(named, tf.argmax(onehots, 1)), tf.float32))
print("cluster-name agreement on test:",
      session.run(agreement, {images: digits.test.images, onehots: digits.test.labels}))
