"""tf.contrib.factorization.KMeans (TF1's clustering_ops.KMeans): the graph of k-means on input Tensors.

training_graph() returns TF1 1.15's six: all_scores (each input's [rows, k] distances to the centers),
cluster_idx (each row's nearest center), scores (that distance), cluster_centers_initialized, init_op and
training_op; the first three are lists, one entry per input Tensor. Distances: squared euclidean, or cosine,
1 - x.c on l2-normalized rows and centers. Training, after init_op (cluster_init.py) chose the centers:
- full batch: each center becomes the mean of its rows (a center without rows becomes 0);
- mini batch: a center c with count n so far and batch rows x_1..x_m becomes (n c + sum x) / (n + m), the
  counts starting at 1; with mini_batch_steps_per_iteration N > 1 those updates go to a copy (its counts
  starting at 0) that replaces the centers every N steps, when the counts start again.
"""
from ...framework import dtypes
from ...framework.graph_wrappers import control_dependencies
from ...ops.array_ops import argmin, cast, ones, reshape, shape, zeros
from ...ops.control_flow_ops import cond
from ...ops.core_ops import constant, convert_to_tensor, group, identity, no_op
from ...ops.gather_ops import gather
from ...ops.cwise_ops import reciprocal
from ...ops.math_ops import add_n, less_equal, matmul, ones_like, square, zeros_like
from ...ops.nn_impl import l2_normalize
from ...ops.reduction_ops import reduce_min, reduce_sum
from ...ops.scatter_ops import scatter_add
from ...ops.segment_ops import unsorted_segment_sum
from ...ops.sort_ops import unique
from ...ops.variables import Variable, assign
from .cluster_init import KMC2_INIT, KMEANS_PLUS_PLUS_INIT, RANDOM_INIT, initialize_clusters_op

SQUARED_EUCLIDEAN_DISTANCE = "squared_euclidean"
COSINE_DISTANCE = "cosine"
CLUSTERS_VAR_NAME = "clusters"


class KMeans:
    """The k-means graph of `inputs` (a Tensor or a list of Tensors of rows) with `num_clusters` centers."""

    def __init__(self, inputs, num_clusters, initial_clusters=RANDOM_INIT,
                 distance_metric=SQUARED_EUCLIDEAN_DISTANCE, use_mini_batch=False, mini_batch_steps_per_iteration=1,
                 random_seed=0, kmeans_plus_plus_num_retries=2, kmc2_chain_length=200):
        named = initial_clusters if isinstance(initial_clusters, str) else None
        if named is not None and named not in (RANDOM_INIT, KMEANS_PLUS_PLUS_INIT, KMC2_INIT):
            raise ValueError(f"Unsupported initialization algorithm {named!r}: use {RANDOM_INIT!r}, "
                             f"{KMEANS_PLUS_PLUS_INIT!r}, a Tensor of centers or a callable")
        if named == KMC2_INIT:
            raise NotImplementedError("KMeans(initial_clusters='kmc2') (k-MC2 Markov-chain seeding) is not "
                                      "implemented: use 'kmeans_plus_plus', whose seeding k-MC2 approximates")
        if distance_metric not in (SQUARED_EUCLIDEAN_DISTANCE, COSINE_DISTANCE):
            raise ValueError(f"Unsupported distance metric {distance_metric!r}: use {SQUARED_EUCLIDEAN_DISTANCE!r} "
                             f"or {COSINE_DISTANCE!r}")
        if int(mini_batch_steps_per_iteration) < 1:
            raise ValueError(f"mini_batch_steps_per_iteration must be >= 1, got {mini_batch_steps_per_iteration!r}")
        self._inputs = [convert_to_tensor(i) for i in (inputs if isinstance(inputs, list) else [inputs])]
        self._num_clusters, self._initial_clusters = num_clusters, initial_clusters
        self._cosine = distance_metric == COSINE_DISTANCE
        self._use_mini_batch, self._steps_per_iteration = use_mini_batch, int(mini_batch_steps_per_iteration)
        self._random_seed, self._retries = random_seed, kmeans_plus_plus_num_retries

    def _clusters_l2_normalized(self):
        """Whether the centers variable holds normalized centers (TF1: cosine, unless mini-batch every step)."""
        return self._cosine and (not self._use_mini_batch or self._steps_per_iteration > 1)

    def training_graph(self):
        """(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op, training_op), as TF1."""
        initial = self._initial_clusters
        if isinstance(initial, str) or callable(initial):
            num_clusters = convert_to_tensor(self._num_clusters, dtype=dtypes.int32)
        else:
            initial = convert_to_tensor(initial)
            num_clusters = shape(initial)[0]
        dtype = self._inputs[0].dtype
        centers = Variable(constant([], dtype=dtype), name=CLUSTERS_VAR_NAME, validate_shape=False)
        initialized = Variable(False, dtype=dtypes.bool, name="initialized")
        updated, update_in_steps, counts = centers, None, None
        if self._use_mini_batch and self._steps_per_iteration > 1:
            updated = Variable(constant([], dtype=dtype), name="clusters_updated", validate_shape=False)
            update_in_steps = Variable(self._steps_per_iteration, dtype=dtypes.int64, name="update_in_steps")
            counts = Variable(zeros(reshape(num_clusters, [1]), dtypes.int64))
        elif self._use_mini_batch:  # TF1 counts each initial center as one point
            counts = Variable(ones(reshape(num_clusters, [1]), dtypes.int64))
        init_op = initialize_clusters_op(self._inputs, num_clusters, initial, self._cosine, self._random_seed,
                                         self._retries, centers, updated, initialized)
        inputs, current = self._inputs, centers
        if self._cosine:
            inputs = [l2_normalize(i, 1) for i in inputs]
            if not self._clusters_l2_normalized():
                current = l2_normalize(centers, 1)
        all_scores = self._distances(inputs, current)
        scores = [reduce_min(s, axis=1) for s in all_scores]
        cluster_idx = [argmin(s, axis=1) for s in all_scores]
        if self._use_mini_batch:
            with control_dependencies([self._sync_updates(update_in_steps, centers, updated, counts)]):
                training_op = self._mini_batch_training_op(inputs, cluster_idx, updated, counts)
        else:
            training_op = self._full_batch_training_op(inputs, num_clusters, cluster_idx, centers)
        return all_scores, cluster_idx, scores, initialized, init_op, training_op

    def _distances(self, inputs, centers):
        if self._cosine:
            return [1 - matmul(i, centers, transpose_b=True) for i in inputs]
        return [reduce_sum(square(i), 1, keepdims=True) - 2 * matmul(i, centers, transpose_b=True)
                + reshape(reduce_sum(square(centers), 1), [1, -1]) for i in inputs]

    def _full_batch_training_op(self, inputs, num_clusters, cluster_idx, centers):
        sums = [unsorted_segment_sum(i, idx, num_clusters) for i, idx in zip(inputs, cluster_idx)]
        sizes = [unsorted_segment_sum(ones_like(idx, dtype=inputs[0].dtype), idx, num_clusters)
                 for idx in cluster_idx]
        epsilon = constant(1e-6, dtype=inputs[0].dtype)  # TF1's: an empty center becomes 0, not NaN
        new_centers = add_n(sums) / (reshape(add_n(sizes), [-1, 1]) + epsilon)
        if self._clusters_l2_normalized():
            new_centers = l2_normalize(new_centers, 1)
        return assign(centers, new_centers)

    def _mini_batch_training_op(self, inputs, cluster_idx, centers, counts):
        updates = []
        for rows, idx in zip(inputs, cluster_idx):
            ids, position = unique(idx)
            num_ids = shape(ids)[0]
            batch_counts = unsorted_segment_sum(ones_like(position, dtype=dtypes.int64), position, num_ids)
            old_counts, old_centers = gather(counts, ids), gather(centers, ids)
            weight = reshape(cast(batch_counts, rows.dtype), [-1, 1])
            step = reshape(reciprocal(cast(old_counts + batch_counts, rows.dtype)), [-1, 1])
            moves = (unsorted_segment_sum(rows, position, num_ids) - weight * old_centers) * step
            updates += [scatter_add(counts, ids, batch_counts), scatter_add(centers, ids, moves)]
        return group(*updates)

    def _sync_updates(self, update_in_steps, centers, updated, counts):
        """Every N steps (N > 1): the centers take the copy's values and its counts restart from 0."""
        if update_in_steps is None:
            return no_op()

        def sync():
            with control_dependencies([assign(update_in_steps, self._steps_per_iteration - 1)]):
                copied = l2_normalize(updated, 1) if self._cosine else identity(updated)
                with control_dependencies([assign(centers, copied, validate_shape=False)]):
                    with control_dependencies([assign(counts, zeros_like(counts))]):
                        return identity(update_in_steps)
        return cond(less_equal(update_in_steps, 0), sync, lambda: update_in_steps.assign_sub(1))
