"""Candidate samplers, accidental hits, nce_loss and sampled_softmax_loss against closed forms and numpy references."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op

FLT_MAX = float(np.finfo(np.float32).max)


def run(fetches):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetches)


def log_uniform_p(k, range_max):
    return (np.log(k + 2.0) - np.log(k + 1.0)) / np.log(range_max + 1.0)


def chi_square(samples, p):
    counts = np.bincount(samples, minlength=len(p))
    expected = p * len(samples)
    keep = expected > 0
    assert counts[~keep].sum() == 0, f"ids with probability 0 were drawn: {np.nonzero(counts * ~keep)[0]}"
    return float(((counts[keep] - expected[keep]) ** 2 / expected[keep]).sum()), int(keep.sum()) - 1


# 99.9% quantiles of chi-square with `df` degrees of freedom (Wilson-Hilferty is within 1% here).
def chi2_limit(df):
    return df * (1 - 2 / (9 * df) + 3.09 * np.sqrt(2 / (9 * df))) ** 3


SAMPLERS = {
    "log_uniform": (lambda t, n, u, r, seed: tg.nn.log_uniform_candidate_sampler(t, 1, n, u, r, seed=seed),
                    lambda r: log_uniform_p(np.arange(r), r)),
    "uniform": (lambda t, n, u, r, seed: tg.nn.uniform_candidate_sampler(t, 1, n, u, r, seed=seed),
                lambda r: np.full(r, 1.0 / r)),
    "fixed_unigram": (lambda t, n, u, r, seed: tg.nn.fixed_unigram_candidate_sampler(
        t, 1, n, u, r, unigrams=np.arange(1.0, r - 1), distortion=0.75, num_reserved_ids=2, seed=seed),
        lambda r: np.concatenate([[0.0, 0.0], np.arange(1.0, r - 1) ** 0.75]) / (np.arange(1.0, r - 1) ** 0.75).sum()),
}


@pytest.mark.parametrize("kind", sorted(SAMPLERS))
def test_sampler_distribution_and_expected_counts_without_unique(kind):
    build, probs = SAMPLERS[kind]
    r, n = 20, 100_000
    true = np.array([[0], [5], [19]], np.int64)
    with tg.Graph().as_default():
        sampled, true_count, sampled_count = build(tg.constant(true), n, False, r, 7)
        assert sampled.dtype == np.int64 and true_count.dtype == np.float32 and true_count.shape == (3, 1)
        s, tc, sc = run([sampled, true_count, sampled_count])
    p = probs(r)
    stat, df = chi_square(s, p)
    assert stat < chi2_limit(df), f"{kind}: chi-square {stat:.1f} over {df} dof: the draws do not follow P(k)"
    np.testing.assert_allclose(tc, p[true] * n, rtol=1e-6)  # every draw kept: p * num_sampled
    np.testing.assert_allclose(sc, p[s] * n, rtol=1e-6)


@pytest.mark.parametrize("kind", sorted(SAMPLERS))
def test_unique_sampling_gives_distinct_ids_and_tf1_expected_counts(kind):
    build, probs = SAMPLERS[kind]
    r, n = 20, 12
    true = np.array([[3], [11]], np.int64)
    p = probs(r)
    tries_seen = set()
    with tg.Graph().as_default():
        ops = build(tg.constant(true), n, True, r, 3)
        with tg.Session() as sess:
            for _ in range(5):
                s, tc, sc = sess.run(ops)
                assert len(set(s.tolist())) == n and s.min() >= 0 and s.max() < r
                # E = -expm1(t * log1p(-p)) for one whole number of tries t >= n (or p * n when t == n).
                tries = np.log1p(-sc.astype(np.float64)) / np.log1p(-p[s])
                t = int(round(tries[0]))
                if t == n:
                    np.testing.assert_allclose(sc, p[s] * n, rtol=1e-6)
                else:
                    assert t > n
                    np.testing.assert_allclose(sc, -np.expm1(t * np.log1p(-p[s])), rtol=1e-5)
                    np.testing.assert_allclose(tc, -np.expm1(t * np.log1p(-p[true])), rtol=1e-5)
                tries_seen.add(t)
    assert max(tries_seen) > n, "12 distinct ids of 20 should have needed rejected draws at least once"


def test_unique_sampling_counts_its_tries_as_the_coupon_collector_predicts():
    # Drawing uniformly until 12 of 20 ids are distinct takes sum_k 20 / (20 - k) tries on average.
    r, n, runs = 20, 12, 400
    q = (r - np.arange(n)) / r
    mean, std = (1 / q).sum(), np.sqrt(((1 - q) / q ** 2).sum() / runs)
    with tg.Graph().as_default():
        sampled_count = tg.nn.uniform_candidate_sampler(tg.constant([[0]]), 1, n, True, r, seed=5)[2]
        with tg.Session() as sess:
            counts = np.array([sess.run(sampled_count)[0] for _ in range(runs)], np.float64)
    tries = np.where(np.isclose(counts, n / r), n, np.log1p(-counts) / np.log1p(-1 / r))
    assert abs(tries.mean() - mean) < 4 * std, f"mean tries {tries.mean():.2f}, expected {mean:.2f} +- {std:.2f}"


def test_unique_with_num_sampled_equal_to_range_is_a_permutation():
    with tg.Graph().as_default():
        s, _, _ = tg.nn.uniform_candidate_sampler(tg.constant([[1]]), 1, 6, True, 6, seed=1)
        assert sorted(run(s).tolist()) == list(range(6))


def test_seeds_reproduce_and_resume_the_stream():
    def draws(op_seed, graph_seed=5, runs=3, state=None):
        with tg.Graph().as_default():
            tg.set_random_seed(graph_seed)
            s = tg.nn.log_uniform_candidate_sampler(tg.constant([[1]]), 1, 8, True, 1000, seed=op_seed)[0]
            with tg.Session() as sess:
                if state is not None:
                    sess.set_random_state(state)
                out = [sess.run(s).tolist() for _ in range(runs)]
                return out, sess.random_state()

    first, _ = draws(4)
    again, _ = draws(4)
    assert first == again and first[0] != first[1]
    assert draws(9)[0] != first
    head, state = draws(4, runs=1)
    tail, _ = draws(4, runs=2, state=state)
    assert head + tail == first, "a resumed session must continue the same stream"


def test_fixed_unigram_shards_and_vocab_file(tmp_path):
    counts = np.array([5.0, 1.0, 3.0, 2.0, 4.0, 6.0])
    vocab = tmp_path / "vocab.csv"
    vocab.write_text("".join(f"w{i},{c:g}\n" for i, c in enumerate(counts)))
    # Shard 1 of 2 with one reserved id: ids 1, 3, 5 of [reserved, c0..c5] -> counts c0, c2, c4.
    shard_p = counts[[0, 2, 4]] / counts[[0, 2, 4]].sum()
    with tg.Graph().as_default():
        t = tg.constant([[0], [2]])
        from_list = tg.nn.fixed_unigram_candidate_sampler(t, 1, 30000, False, 3, unigrams=counts, num_reserved_ids=1,
                                                          num_shards=2, shard=1, seed=2)
        from_file = tg.nn.fixed_unigram_candidate_sampler(t, 1, 30000, False, 3, vocab_file=str(vocab),
                                                          num_reserved_ids=1, num_shards=2, shard=1, seed=2)
        (s1, tc1, _), (s2, tc2, _) = run([from_list, from_file])
    np.testing.assert_array_equal(s1, s2)
    stat, df = chi_square(s1, shard_p)
    assert stat < chi2_limit(df)
    np.testing.assert_allclose(tc1[:, 0], shard_p[[0, 2]] * 30000, rtol=1e-6)


def test_all_candidate_sampler():
    with tg.Graph().as_default():
        s, tc, sc = run(tg.nn.all_candidate_sampler(tg.constant([[2, 1], [0, 3]]), 2, 5, True))
    assert s.tolist() == [0, 1, 2, 3, 4] and (tc == 1).all() and tc.shape == (2, 2) and (sc == 1).all()


def accidental_hits_oracle(true, sampled):
    position = {v: j for j, v in enumerate(sampled)}  # TF1 keeps the last position of a repeated id
    hits = [(i, position[c]) for i, row in enumerate(true) for c in row if c in position]
    return [h[0] for h in hits], [h[1] for h in hits]


def test_compute_accidental_hits_matches_a_loop():
    true = np.array([[1, 4], [3, 3], [0, 9], [7, 2]], np.int64)
    sampled = np.array([3, 0, 7, 3, 1, 5], np.int64)
    with tg.Graph().as_default():
        indices, ids, weights = run(tg.nn.compute_accidental_hits(tg.constant(true), tg.constant(sampled), 2))
    rows, positions = accidental_hits_oracle(true, sampled)
    assert indices.dtype == np.int32 and ids.dtype == np.int64 and weights.dtype == np.float32
    assert indices.tolist() == rows and ids.tolist() == positions and (weights == -FLT_MAX).all()


def sampled_logits_reference(w, b, labels, x, sampled, true_count, sampled_count, remove_hits):
    true_logits = np.einsum("bd,btd->bt", x, w[labels]) + b[labels] - np.log(true_count)
    sampled_logits = x @ w[sampled].T + b[sampled] - np.log(sampled_count)
    if remove_hits:
        for i, j in zip(*accidental_hits_oracle(labels, sampled)):
            sampled_logits[i, j] -= FLT_MAX
    return true_logits, sampled_logits


def nce_reference(*args):
    true_logits, sampled_logits = sampled_logits_reference(*args)
    softplus = lambda z: np.logaddexp(0, z)  # noqa: E731
    num_true = true_logits.shape[1]
    true_loss = softplus(true_logits) - true_logits / num_true  # sigmoid cross-entropy with label 1/num_true
    return true_loss.sum(axis=1) + softplus(sampled_logits).sum(axis=1)


def softmax_reference(*args):
    true_logits, sampled_logits = sampled_logits_reference(*args)
    logits = np.concatenate([true_logits, sampled_logits], axis=1)
    log_p = logits - logits.max(axis=1, keepdims=True)
    log_p -= np.log(np.exp(log_p).sum(axis=1, keepdims=True))
    return -log_p[:, :true_logits.shape[1]].mean(axis=1)


LOSSES = {"nce": (tg.nn.nce_loss, nce_reference), "sampled_softmax": (tg.nn.sampled_softmax_loss, softmax_reference)}


@pytest.mark.parametrize("remove_hits", [False, True])
@pytest.mark.parametrize("loss", sorted(LOSSES))
def test_losses_match_numpy_and_numerical_gradients(loss, remove_hits):
    fn, reference = LOSSES[loss]
    rng = np.random.default_rng(1)
    classes, dim, num_true = 9, 3, 2
    w, b, x = rng.standard_normal((classes, dim)), rng.standard_normal(classes), rng.standard_normal((4, dim))
    labels = np.array([[1, 4], [3, 3], [0, 8], [7, 2]], np.int64)
    sampled = np.array([3, 0, 6, 5, 1], np.int64)  # hits: rows 0, 1 (twice) and 2
    true_count = rng.uniform(0.2, 1.0, labels.shape)
    sampled_count = rng.uniform(0.2, 1.0, sampled.shape)

    def build(wt, bt, xt):
        values = (tg.constant(sampled), tg.constant(true_count, dtype=tg.float32),
                  tg.constant(sampled_count, dtype=tg.float32))
        return fn(wt, bt, tg.constant(labels.astype(np.int32)), xt, num_sampled=5, num_classes=classes,
                  num_true=num_true, sampled_values=values, remove_accidental_hits=remove_hits)

    # The counts enter as float32, as TF1's samplers return them.
    f32 = lambda a: a.astype(np.float32).astype(np.float64)  # noqa: E731
    check_op(build, [w, b, x], numpy_fn=lambda w, b, x: reference(w, b, labels, x, sampled, f32(true_count),
                                                                  f32(sampled_count), remove_hits))


def test_default_remove_accidental_hits_follows_tf1():
    rng = np.random.default_rng(2)
    w, b, x = rng.standard_normal((5, 2)), rng.standard_normal(5), rng.standard_normal((2, 2))
    labels, sampled = np.array([[1], [2]]), np.array([1, 4, 2])
    counts = (np.ones((2, 1)), np.ones(3))
    with tg.Graph().as_default():
        values = (tg.constant(sampled), tg.constant(counts[0]), tg.constant(counts[1]))
        nce = tg.nn.nce_loss(w, b, labels, x, 3, 5, sampled_values=values)
        softmax = tg.nn.sampled_softmax_loss(w, b, labels, x, 3, 5, sampled_values=values)
        nce_v, softmax_v = run([nce, softmax])
    np.testing.assert_allclose(nce_v, nce_reference(w, b, labels, x, sampled, *counts, False), rtol=1e-12)
    np.testing.assert_allclose(softmax_v, softmax_reference(w, b, labels, x, sampled, *counts, True), rtol=1e-12)


@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_sharded_weights_equal_the_whole_table(strategy):
    rng = np.random.default_rng(3)
    w, b, x = rng.standard_normal((7, 3)), rng.standard_normal(7), rng.standard_normal((3, 3))
    labels, sampled = np.array([[6], [0], [4]]), np.array([5, 2, 6, 1])
    counts = (np.full((3, 1), 0.5), np.full(4, 0.25))
    # TF1's partitions of 7 rows in 3 shards: "mod" puts id i in shard i % 3, "div" gives 3, 2, 2 rows in order.
    parts = [w[0::3], w[1::3], w[2::3]] if strategy == "mod" else [w[:3], w[3:5], w[5:]]
    with tg.Graph().as_default():
        shards = [tg.Variable(p) for p in parts]
        values = (tg.constant(sampled), tg.constant(counts[0]), tg.constant(counts[1]))
        loss = tg.nn.sampled_softmax_loss(shards, b, labels, x, 4, 7, sampled_values=values,
                                          partition_strategy=strategy)
        grads = tg.gradients(tg.reduce_sum(loss), shards)
        value, grad_values = run([loss, grads])
    np.testing.assert_allclose(value, softmax_reference(w, b, labels, x, sampled, *counts, True), rtol=1e-12)
    assert [g.shape for g in grad_values] == [p.shape for p in parts]


def test_default_sampler_is_seeded_log_uniform_under_the_loss_scope():
    with tg.Graph().as_default():
        tg.set_random_seed(3)
        w = tg.Variable(np.zeros((50, 2)))
        loss = tg.nn.sampled_softmax_loss(w, tg.zeros([50], tg.float64), [[1], [2]], np.ones((2, 2)), 10, 50, seed=4)
        samplers = [op for op in tg.get_default_graph().get_operations() if op.type.endswith("CandidateSampler")]
        assert [op.name for op in samplers] == ["sampled_softmax_loss/LogUniformCandidateSampler"]
        # Zero weights: every logit is -log(expected count); the loss is finite and positive.
        assert np.all(np.isfinite(run(loss))) and np.all(run(loss) > 0)


def test_errors_name_the_culprit():
    with tg.Graph().as_default():
        w, b = tg.Variable(np.zeros((10, 2))), tg.Variable(np.zeros(10))
        x = tg.constant(np.ones((2, 2)))
        with pytest.raises(TypeError, match="labels must be integer class ids, got 'Const.*float"):
            tg.nn.nce_loss(w, b, tg.constant([[1.0], [2.0]]), x, 3, 10)
        with pytest.raises(ValueError, match=r"shape \[batch_size, num_true=2\].*\(2, 1\)"):
            tg.nn.nce_loss(w, b, [[1], [2]], x, 3, 10, num_true=2)
        with pytest.raises(ValueError, match="unique=True cannot draw num_sampled=11 distinct ids from range_max=10"):
            tg.nn.log_uniform_candidate_sampler([[1]], 1, 11, True, 10)
        with pytest.raises(NotImplementedError, match="learned_unigram_candidate_sampler is not supported"):
            tg.nn.learned_unigram_candidate_sampler([[1]], 1, 2, True, 10)
        with pytest.raises(ValueError, match="range_max=5 must equal the number of this shard's ids.*3"):
            tg.nn.fixed_unigram_candidate_sampler([[1]], 1, 2, True, 5, unigrams=[1, 2, 3])
        with pytest.raises(ValueError, match="exactly one of vocab_file= and unigrams="):
            tg.nn.fixed_unigram_candidate_sampler([[1]], 1, 2, True, 3)
        with pytest.raises(ValueError, match="partition_strategy must be 'mod' or 'div', got 'rows'"):
            tg.nn.nce_loss([w, w], b, [[1], [2]], x, 3, 20, partition_strategy="rows")
        with pytest.raises(ValueError, match="sampled_values must be .* got 2 items"):
            tg.nn.nce_loss(w, b, [[1], [2]], x, 3, 10, sampled_values=([1, 2, 3], [[1.0], [1.0]]))
        labels = tg.placeholder(tg.int64, [None, None])
        s = tg.nn.uniform_candidate_sampler(labels, 2, 3, True, 10)
        with pytest.raises(ValueError, match="true_classes must be a matrix with num_true=2 columns, got shape"):
            tg.Session().run(s, {labels: np.zeros((4, 3), np.int64)})


def test_word2vec_basic_trains_embeddings():
    """word2vec_basic.py's graph on a tiny corpus where word 2k's context is 2k + 1: the NCE loss falls."""
    vocabulary_size, embedding_size, batch_size, num_sampled = 16, 8, 32, 4
    rng = np.random.default_rng(0)
    with tg.Graph().as_default():
        tg.set_random_seed(1)
        train_inputs = tg.placeholder(tg.int32, shape=[batch_size])
        train_labels = tg.placeholder(tg.int32, shape=[batch_size, 1])
        with tg.device("/cpu:0"):
            embeddings = tg.Variable(tg.random_uniform([vocabulary_size, embedding_size], -1.0, 1.0))
            embed = tg.nn.embedding_lookup(embeddings, train_inputs)
            nce_weights = tg.Variable(tg.truncated_normal([vocabulary_size, embedding_size],
                                                          stddev=1.0 / np.sqrt(embedding_size)))
            nce_biases = tg.Variable(tg.zeros([vocabulary_size]))
        loss = tg.reduce_mean(tg.nn.nce_loss(weights=nce_weights, biases=nce_biases, labels=train_labels,
                                             inputs=embed, num_sampled=num_sampled, num_classes=vocabulary_size))
        optimizer = tg.train.GradientDescentOptimizer(1.0).minimize(loss)
        norm = tg.sqrt(tg.reduce_sum(tg.square(embeddings), 1, keepdims=True))
        similarity = tg.matmul(embeddings / norm, embeddings / norm, transpose_b=True)
        with tg.Session() as session:
            tg.global_variables_initializer().run()
            losses = []
            for _ in range(150):
                words = 2 * rng.integers(0, vocabulary_size // 2, batch_size)
                _, value = session.run([optimizer, loss], {train_inputs: words, train_labels: (words + 1)[:, None]})
                losses.append(value)
            sim = similarity.eval()
    assert np.mean(losses[-20:]) < 0.5 * np.mean(losses[:20]), (losses[:5], losses[-5:])
    assert sim.shape == (vocabulary_size, vocabulary_size)
