"""tf.contrib.factorization.KMeans against numpy re-statements of TF1's documented updates: Lloyd's step for
full batch, the running mean (n c + sum x) / (n + m) with counts from 1 for mini batch, 1 - cos for the cosine
distance, and TF1's initializations."""
import numpy as np
import pytest

import trainer as tg
from trainer.unsupported import NotInRingflow

KMeans = tg.contrib.factorization.KMeans
RNG = np.random.RandomState(0)
POINTS = RNG.randn(12, 3)
START = np.array([[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [50.0, 50.0, 50.0]])  # the third center gets no rows


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def variable(name):
    return tg.get_default_graph().get_tensor_by_name(f"{name}:0")


def squared_distances(x, centers):
    return ((x[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)


def unit(rows):
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_full_batch_squared_euclidean_is_lloyds_step():
    x = tg.placeholder(tg.float64, [None, 3])
    graph = KMeans(x, 3, initial_clusters=START).training_graph()
    assert len(graph) == 6  # TF1 1.15's tuple
    all_scores, cluster_idx, scores, initialized, init_op, train_op = graph
    assert all(isinstance(part, list) and len(part) == 1 for part in (all_scores, cluster_idx, scores))
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        assert not sess.run(initialized)
        sess.run(init_op, {x: POINTS})
        assert sess.run(initialized) and np.array_equal(sess.run(variable("clusters")), START)
        sess.run(init_op, {x: POINTS})  # initialized: it only checks
        got_all, got_idx, got_scores, _ = sess.run([all_scores[0], cluster_idx[0], scores[0], train_op], {x: POINTS})
        centers = sess.run(variable("clusters"))
    distances = squared_distances(POINTS, START)
    assert np.allclose(got_all, distances) and np.array_equal(got_idx, distances.argmin(axis=1))
    assert np.allclose(got_scores, distances.min(axis=1))
    expected = np.array([POINTS[got_idx == c].mean(axis=0) if (got_idx == c).any() else np.zeros(3)
                         for c in range(3)])
    assert 2 not in got_idx and np.allclose(centers, expected, atol=1e-5)  # TF1's epsilon: 1e-6 in the count


def test_mini_batch_moves_centers_by_running_means_with_counts_from_one():
    x = tg.placeholder(tg.float64, [None, 3])
    _, cluster_idx, _, _, init_op, train_op = KMeans(x, 3, initial_clusters=START,
                                                     use_mini_batch=True).training_graph()
    centers, counts = START.copy(), np.ones(3)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(init_op, {x: POINTS})
        for batch in (POINTS[:5], POINTS[5:], POINTS[2:9]):
            idx = squared_distances(batch, centers).argmin(axis=1)
            got_idx, _ = sess.run([cluster_idx[0], train_op], {x: batch})
            assert np.array_equal(got_idx, idx)
            for c in set(idx):
                m = (idx == c).sum()
                centers[c] = (counts[c] * centers[c] + batch[idx == c].sum(axis=0)) / (counts[c] + m)
                counts[c] += m
        assert np.allclose(sess.run(variable("clusters")), centers)
        assert sess.run(variable("Variable")).tolist() == counts.tolist()


def test_cosine_distance_works_on_normalized_rows_and_centers():
    x = tg.placeholder(tg.float64, [None, 3])
    all_scores, cluster_idx, scores, _, init_op, train_op = KMeans(
        x, 2, initial_clusters=START[:2] + [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]], distance_metric="cosine"
    ).training_graph()
    start = unit(START[:2] + [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(init_op, {x: POINTS})
        assert np.allclose(sess.run(variable("clusters")), start)  # TF1 normalizes the initial centers
        got_all, got_scores, got_idx, _ = sess.run([all_scores[0], scores[0], cluster_idx[0], train_op], {x: POINTS})
        centers = sess.run(variable("clusters"))
    cosine = 1 - unit(POINTS) @ start.T
    assert np.allclose(got_all, cosine) and np.allclose(got_scores, cosine.min(axis=1))
    assert np.array_equal(got_idx, cosine.argmin(axis=1))
    means = np.array([unit(POINTS)[got_idx == c].mean(axis=0) for c in range(2)])
    assert np.allclose(centers, unit(means), atol=1e-5)  # full batch with cosine: normalized means


def test_mini_batch_steps_per_iteration_copies_every_n_steps():
    x = tg.placeholder(tg.float64, [None, 3])
    _, _, _, _, init_op, train_op = KMeans(x, 3, initial_clusters=START, use_mini_batch=True,
                                           mini_batch_steps_per_iteration=2).training_graph()
    updated, counts = START.copy(), np.zeros(3)  # the copy's counts start at 0
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(init_op, {x: POINTS})
        for batch in (POINTS[:6], POINTS[6:]):
            sess.run(train_op, {x: batch})
            assert np.array_equal(sess.run(variable("clusters")), START)  # not copied yet
            idx = squared_distances(batch, START).argmin(axis=1)
            for c in set(idx):
                m = (idx == c).sum()
                updated[c] = (counts[c] * updated[c] + batch[idx == c].sum(axis=0)) / (counts[c] + m)
                counts[c] += m
        assert np.allclose(sess.run(variable("clusters_updated")), updated)
        sess.run(train_op, {x: POINTS[:1]})  # the third step copies, then updates the copy
        assert np.allclose(sess.run(variable("clusters")), updated)


def test_random_init_takes_whole_small_batches_then_samples_rows():
    x = tg.placeholder(tg.float32, [None, 3])
    _, _, _, initialized, init_op, _ = KMeans(x, 3, random_seed=5).training_graph()
    first, second = POINTS[:2].astype(np.float32), POINTS[4:10].astype(np.float32)
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(init_op, {x: first})
        assert not sess.run(initialized) and np.array_equal(sess.run(variable("clusters")), first)
        sess.run(init_op, {x: second})
        centers = sess.run(variable("clusters"))
        assert sess.run(initialized) and centers.shape == (3, 3)
        assert np.array_equal(centers[:2], first) and any(np.array_equal(centers[2], row) for row in second)


def test_kmeans_plus_plus_seeds_one_center_per_far_apart_blob():
    blobs = np.concatenate([RNG.randn(20, 2) * 0.01 + offset for offset in ([0, 0], [100, 0], [0, 100])])
    x = tg.placeholder(tg.float64, [None, 2])
    _, _, _, initialized, init_op, _ = KMeans(x, 3, initial_clusters="kmeans_plus_plus").training_graph()
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        sess.run(init_op, {x: blobs})
        centers = sess.run(variable("clusters"))
    assert sess is not None and sorted(np.round(centers / 100).astype(int).tolist()) == [[0, 0], [0, 1], [1, 0]]
    assert all(any(np.array_equal(c, row) for row in blobs) for c in centers)


def test_unsupported_choices_say_so():
    x = tg.placeholder(tg.float32, [None, 3])
    with pytest.raises(NotImplementedError, match="kmc2"):
        KMeans(x, 3, initial_clusters="kmc2")
    with pytest.raises(ValueError, match="Unsupported distance metric 'manhattan'"):
        KMeans(x, 3, distance_metric="manhattan")
    with pytest.raises(ValueError, match="Unsupported initialization algorithm 'best'"):
        KMeans(x, 3, initial_clusters="best")
    with pytest.raises(NotInRingflow, match="factorization.WALSModel is not available"):
        tg.contrib.factorization.WALSModel
