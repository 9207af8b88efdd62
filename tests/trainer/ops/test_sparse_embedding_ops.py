"""embedding_lookup_sparse and its safe form against a direct per-row loop, and their gradients (dense here, an
IndexedSlices in TF) against numerical ones."""
import numpy as np
import pytest

import trainer as tg

TABLE = np.random.RandomState(0).randn(6, 3)
ROWS = {0: [(1, 2.0), (4, 0.5)], 2: [(4, 1.0), (0, 3.0), (4, 0.25)]}  # row -> [(id, weight)], row 1 empty


def sparse(which):
    indices = [[r, k] for r, pairs in ROWS.items() for k in range(len(pairs))]
    values = [pair[which] for pairs in ROWS.values() for pair in pairs]
    return tg.SparseTensor(indices, tg.constant(values, tg.int64 if which == 0 else tg.float64), [3, 3])


def reference(combiner, weighted):
    out = np.zeros((3, 3))
    for r, pairs in ROWS.items():
        w = np.array([p[1] if weighted else 1.0 for p in pairs])
        total = (w[:, None] * TABLE[[p[0] for p in pairs]]).sum(0)
        out[r] = total / {"sum": 1.0, "mean": w.sum(), "sqrtn": np.sqrt((w * w).sum())}[combiner]
    return out


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
def test_each_row_combines_its_weighted_embeddings(combiner):
    tg.reset_default_graph()
    plain = tg.nn.embedding_lookup_sparse(TABLE, sparse(0), None, combiner=combiner)
    weighted = tg.nn.embedding_lookup_sparse(TABLE, sparse(0), sparse(1), combiner=combiner)
    safe = tg.nn.safe_embedding_lookup_sparse(TABLE, sparse(0), sparse(1), combiner=combiner)
    with tg.Session() as sess:
        got_plain, got_weighted, got_safe = sess.run([plain, weighted, safe])
    np.testing.assert_allclose(got_plain, reference(combiner, False), atol=1e-12)
    np.testing.assert_allclose(got_weighted, reference(combiner, True), atol=1e-12)
    np.testing.assert_allclose(got_safe, reference(combiner, True), atol=1e-12)  # the empty row stays 0


def test_gradients_reach_the_table_and_the_weights():
    tg.reset_default_graph()
    table = tg.placeholder(tg.float64, (6, 3))
    weights = tg.placeholder(tg.float64, (5,))
    sp_weights = tg.SparseTensor(sparse(1).indices, weights, [3, 3])
    y = tg.nn.safe_embedding_lookup_sparse(table, sparse(0), sp_weights, combiner="sqrtn")
    values = [TABLE, np.array([2.0, 0.5, 1.0, 3.0, 0.25])]
    with tg.Session():
        error = tg.test.compute_gradient_error([table, weights], [(6, 3), (5,)], y, (3, 3), x_init_value=values,
                                               extra_feed_dict=dict(zip((table, weights), values)), delta=1e-6)
    assert error < 1e-6
