"""Classify by the single closest stored example under the L1 distance.

Idioms: a `[None, 784]` placeholder of references beside a rank-1 `[784]` query placeholder broadcast against
it; `tf.negative`, `tf.add`, `tf.abs` and `reduce_sum(..., reduction_indices=1)`; the deprecated `tf.arg_min`
fetched as a numpy integer used to index numpy arrays; a graph with no variables still running its
`global_variables_initializer`.
"""
import numpy as np
import tensorflow as tf

import corpus_data

source = corpus_data.mnist(one_hot=True)
references, reference_labels = source.train.next_batch(500)
queries, query_labels = source.test.next_batch(40)

stored = tf.placeholder("float", [None, 784])
query = tf.placeholder("float", [784])
l1 = tf.reduce_sum(tf.abs(tf.add(stored, tf.negative(query))), reduction_indices=1)
closest = tf.arg_min(l1, 0)

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    right = 0
    for n, (image, label) in enumerate(zip(queries, query_labels)):
        found = session.run(closest, {stored: references, query: image})
        guess, actual = np.argmax(reference_labels[found]), np.argmax(label)
        right += int(guess == actual)
        print("query %d guessed %d actual %d" % (n, guess, actual))
    print("share right:", right / len(queries))
    print("closest to query 0, graph and numpy:", session.run(closest, {stored: references, query: queries[0]}),
          np.argmin(np.abs(references - queries[0]).sum(axis=1)))
