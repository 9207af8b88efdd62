"""Skip-gram vectors in an explicit `tf.Graph`, logged for TensorBoard and its embedding projector.

Idioms: `tf.app.run()` calling `main(argv)`, which parses `--log_dir` with argparse `parse_known_args`; a
`tf.Graph()` built under `as_default()` and run by `tf.compat.v1.Session(graph=...)`; name scopes around
placeholders, a `tf.constant` of probe ids, variables (`random_uniform`, `truncated_normal`, `zeros`, pinned by
`tf.device('/cpu:0')`), `nce_loss` and the optimizer; a scope 'cost' made before `tf.summary.scalar('cost')`, so
the summary is written as `cost_1`; `Operation.run()` and `Tensor.eval()` on the default session; a
`tf.RunMetadata` filled every step and added once with `FileWriter.add_run_metadata`; `tf.train.Saver`;
`tf.contrib.tensorboard.plugins.projector` with a metadata file.
"""
import argparse
import collections
import math
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.tensorboard.plugins import projector

import corpus_data

WIDTH, NEGATIVES, BATCH, STEPS, REPORT, LOOK = 16, 8, 128, 2001, 500, 1000


def index_text(words):
    """Ids by falling frequency after UNK (id 0), and the id -> word list."""
    ranked = ["UNK"] + [word for word, _ in collections.Counter(words).most_common()]
    lookup = {word: i for i, word in enumerate(ranked)}
    return np.array([lookup[word] for word in words], dtype=np.int32), ranked


def neighbour_batches(ids):
    """Endless batches of (centre, [neighbour]) pairs: each word with the word before it and the one after."""
    centres, contexts = [], []
    while True:
        for at in range(1, len(ids) - 1):
            for other in (at - 1, at + 1):
                centres.append(ids[at])
                contexts.append([ids[other]])
                if len(centres) == BATCH:
                    yield np.array(centres), np.array(contexts)
                    centres, contexts = [], []


def train(log_dir):
    os.makedirs(log_dir, exist_ok=True)
    text, _ = corpus_data.text_words()
    ids, words = index_text(text)
    size = len(words)
    print("%d words of text, vocabulary of %d" % (len(ids), size))
    probes = np.arange(1, 5)  # the four most frequent words

    graph = tf.Graph()
    with graph.as_default():
        with tf.name_scope("feeds"):
            centre = tf.placeholder(tf.int32, shape=[BATCH])
            context = tf.placeholder(tf.int32, shape=[BATCH, 1])
            probe_ids = tf.constant(probes, dtype=tf.int32)
        with tf.device("/cpu:0"):
            with tf.name_scope("vectors"):
                vectors = tf.Variable(tf.random_uniform([size, WIDTH], -1.0, 1.0))
            with tf.name_scope("output"):
                out_weights = tf.Variable(tf.truncated_normal([size, WIDTH], stddev=1.0 / math.sqrt(WIDTH)))
                out_biases = tf.Variable(tf.zeros([size]))
        with tf.name_scope("cost"):
            cost = tf.reduce_mean(tf.nn.nce_loss(weights=out_weights, biases=out_biases, labels=context,
                                                 inputs=tf.nn.embedding_lookup(vectors, centre),
                                                 num_sampled=NEGATIVES, num_classes=size))
        tf.summary.scalar("cost", cost)
        with tf.name_scope("descent"):
            learn = tf.train.GradientDescentOptimizer(1.0).minimize(cost)
        unit = vectors / tf.sqrt(tf.reduce_sum(tf.square(vectors), 1, keepdims=True))
        closeness = tf.matmul(tf.nn.embedding_lookup(unit, probe_ids), unit, transpose_b=True)
        summaries = tf.summary.merge_all()
        start = tf.global_variables_initializer()
        saver = tf.train.Saver()

    batches = neighbour_batches(ids)
    with tf.compat.v1.Session(graph=graph) as session:
        writer = tf.summary.FileWriter(log_dir, session.graph)
        start.run()
        recent = []
        for step in range(STEPS):
            xs, ys = next(batches)
            metadata = tf.RunMetadata()
            _, written, value = session.run([learn, summaries, cost], {centre: xs, context: ys},
                                            run_metadata=metadata)
            writer.add_summary(written, step)
            recent.append(value)
            if step == STEPS - 1:
                writer.add_run_metadata(metadata, "step%d" % step)
            if step % REPORT == 0:
                print("step %d: mean cost %.4f" % (step, np.mean(recent)))
                recent = []
            if step % LOOK == 0:
                for probe, row in zip(probes, closeness.eval()):
                    print("Nearest to %s: %s" % (words[probe], ", ".join(words[i] for i in np.argsort(-row)[1:5])))
        final = unit.eval()
        metadata_path = os.path.join(log_dir, "metadata.tsv")
        with open(metadata_path, "w") as listing:
            listing.write("".join(word + "\n" for word in words))
        saver.save(session, os.path.join(log_dir, "model.ckpt"))
        config = projector.ProjectorConfig()
        entry = config.embeddings.add()
        entry.tensor_name, entry.metadata_path = vectors.name, metadata_path
        projector.visualize_embeddings(writer, config)
    writer.close()
    print("final embeddings", final.shape, "named", vectors.name)


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--log_dir", default=os.path.join(os.path.dirname(os.path.realpath(sys.argv[0])), "log"),
                        help="summaries, checkpoint, word list and projector config go here")
    known, _ = parser.parse_known_args(argv[1:])
    train(known.log_dir)


if __name__ == "__main__":
    tf.app.run()
