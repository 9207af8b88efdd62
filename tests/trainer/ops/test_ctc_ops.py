"""CTC against brute force: the loss is -log of the summed probability of every frame path that collapses to the
labels (all C**T paths enumerated), with and without merging repeats; its gradient matches the numerical one; the
greedy decoder takes each frame's best class, merges repeats and drops blanks."""
import itertools

import numpy as np

import trainer as tg

LOGITS = np.random.RandomState(0).randn(5, 2, 4)  # [time, batch, classes], blank = 3
LABELS = {0: [1, 1], 1: [2, 0, 2]}
LENGTHS = [5, 4]


def collapse(path, merge, blank=3):
    out = []
    for k, c in enumerate(path):
        if c != blank and not (merge and k and path[k - 1] == c):
            out.append(c)
    return out


def brute_force(b, merge):
    n = LENGTHS[b]
    probs = np.exp(LOGITS[:n, b]) / np.exp(LOGITS[:n, b]).sum(-1, keepdims=True)
    total = sum(np.prod([probs[t, c] for t, c in enumerate(path)])
                for path in itertools.product(range(4), repeat=n) if collapse(path, merge) == LABELS[b])
    return -np.log(total)


def sparse_labels():
    indices = [[b, k] for b, row in LABELS.items() for k in range(len(row))]
    return tg.SparseTensor(indices, tg.constant([v for row in LABELS.values() for v in row], tg.int32), [2, 3])


def test_the_loss_sums_every_path_that_collapses_to_the_labels():
    tg.reset_default_graph()
    with tg.Session() as sess:
        merged, unmerged = sess.run([tg.nn.ctc_loss(sparse_labels(), LOGITS, LENGTHS),
                                     tg.nn.ctc_loss(sparse_labels(), LOGITS, LENGTHS, ctc_merge_repeated=False)])
    np.testing.assert_allclose(merged, [brute_force(0, True), brute_force(1, True)], rtol=1e-10)
    np.testing.assert_allclose(unmerged, [brute_force(0, False), brute_force(1, False)], rtol=1e-10)


def test_the_gradient_matches_the_numerical_one():
    tg.reset_default_graph()
    x = tg.placeholder(tg.float64, LOGITS.shape)
    loss = tg.nn.ctc_loss(sparse_labels(), x, LENGTHS)
    with tg.Session():
        error = tg.test.compute_gradient_error(x, LOGITS.shape, loss, (2,), x_init_value=LOGITS, delta=1e-6)
    assert error < 1e-6


def test_greedy_decoding_merges_repeats_and_drops_blanks():
    tg.reset_default_graph()
    (decoded,), neg_sum = tg.nn.ctc_greedy_decoder(LOGITS, LENGTHS)
    with tg.Session() as sess:
        got, score = sess.run([tg.sparse.to_dense(decoded, default_value=-1), neg_sum])
    for b in range(2):
        best = LOGITS[:LENGTHS[b], b].argmax(-1)
        want = collapse(list(best), True)
        np.testing.assert_array_equal(got[b, :len(want)], want)
        assert score[b, 0] == -LOGITS[:LENGTHS[b], b].max(-1).sum()
