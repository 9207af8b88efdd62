"""Skip-gram word vectors learnt with noise-contrastive estimation, then each probe word's closest words.

Idioms: variables and an `embedding_lookup` inside `tf.device('/cpu:0')`; `tf.nn.nce_loss(weights, biases,
labels, inputs, num_sampled, num_classes)` with int32 `[None, 1]` labels; plain `GradientDescentOptimizer`;
cosine similarity from `reduce_sum(..., keepdims=True)` norms and `tf.matmul(..., transpose_b=True)`; the
vocabulary built in Python from `collections.Counter` with rare words folded into UNK.
"""
import collections

import numpy as np
import tensorflow as tf

import corpus_data

WIDTH, WINDOW, NEGATIVES, MIN_COUNT = 8, 3, 8, 10
BATCH, STEPS, REPORT = 128, 3000, 1000
PROBES = ["g0w0", "g1w1", "g2w2", "g3w3"]

text, _ = corpus_data.text_words()
counts = collections.Counter(text)
vocabulary = ["UNK"] + [word for word, seen in counts.most_common() if seen >= MIN_COUNT]
position = {word: i for i, word in enumerate(vocabulary)}
ids = np.array([position.get(word, 0) for word in text], dtype=np.int32)
print("text of %d words, %d distinct; vocabulary size: %d" % (len(text), len(counts), len(vocabulary)))

pairs = np.random.RandomState(0)


def skip_gram_batch(size):
    """Random (centre, context) pairs: the context lies 1 to WINDOW words before or after the centre."""
    centres = pairs.randint(WINDOW, len(ids) - WINDOW, size=size)
    offsets = pairs.randint(1, WINDOW + 1, size=size) * pairs.choice([-1, 1], size=size)
    return ids[centres], ids[centres + offsets][:, None]


centre = tf.placeholder(tf.int32, shape=[None])
context = tf.placeholder(tf.int32, shape=[None, 1])
with tf.device("/cpu:0"):
    vectors = tf.Variable(tf.random_normal([len(vocabulary), WIDTH]))
    looked_up = tf.nn.embedding_lookup(vectors, centre)
    out_weights = tf.Variable(tf.random_normal([len(vocabulary), WIDTH]))
    out_biases = tf.Variable(tf.zeros([len(vocabulary)]))
loss = tf.reduce_mean(tf.nn.nce_loss(weights=out_weights, biases=out_biases, labels=context, inputs=looked_up,
                                     num_sampled=NEGATIVES, num_classes=len(vocabulary)))
learn = tf.train.GradientDescentOptimizer(0.2).minimize(loss)


def unit_rows(matrix):
    return matrix / tf.sqrt(tf.reduce_sum(tf.square(matrix), 1, keepdims=True))


similarity = tf.matmul(unit_rows(looked_up), unit_rows(vectors), transpose_b=True)


def show_neighbours(session):
    scores = session.run(similarity, {centre: [position[word] for word in PROBES]})
    for word, row in zip(PROBES, scores):
        closest = np.argsort(-row)[1:5]  # the first is the word itself
        print("closest to %s: %s" % (word, " ".join(vocabulary[i] for i in closest)))


with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    window_losses = []
    for step in range(1, STEPS + 1):
        xs, ys = skip_gram_batch(BATCH)
        window_losses.append(session.run([learn, loss], {centre: xs, context: ys})[1])
        if step == 1 or step % REPORT == 0:
            print("step %d mean loss %.4f" % (step, np.mean(window_losses)))
            window_losses = []
        if step == 1 or step == STEPS:
            show_neighbours(session)
