"""The init_op of TF1's KMeans: choose the initial centers from the input batches.

As TF1's _InitializeClustersOpFactory: the centers variable starts empty and each run of init_op adds the
centers still missing, chosen from the batch fed ("random": every row when the batch has no more rows than
centers missing, else that many rows drawn uniformly with replacement; "kmeans_plus_plus": k-means++ on one
batch; a callable (inputs, num_remaining) or a Tensor of centers), l2-normalized for the cosine distance;
once none are missing it sets `initialized`. The k-means++ sampler is the KmeansPlusPlusInitialization op.
"""
import math

import numpy as np

from ...framework import dtypes
from ...framework.graph_wrappers import control_dependencies
from ...framework.registry import apply_op, register
from ...ops.array_ops import cast, concat, reshape, shape
from ...ops.check_ops import assert_equal, assert_greater_equal, assert_positive
from ...ops.control_flow_ops import cond
from ...ops.core_ops import convert_to_tensor, group, identity, no_op
from ...ops.gather_ops import gather
from ...ops.math_ops import add_n, equal, less_equal
from ...ops.nn_impl import l2_normalize
from ...ops.random_ops import random_uniform
from ...ops.tensor_util import static_shape
from ...ops.variables import assign

RANDOM_INIT = "random"
KMEANS_PLUS_PLUS_INIT = "kmeans_plus_plus"
KMC2_INIT = "kmc2"


def _kmeans_plus_plus(points, num_to_sample, seed, num_retries_per_sample):
    """The rows of `points` k-means++ (Arthur and Vassilvitskii) picks: the first uniformly, each next one with
    probability proportional to the squared distance to the nearest pick so far, the best of 1 + retries draws
    (the one leaving the smallest total distance). A fresh generator from `seed` on each run, as TF1's op."""
    rng, num_to_sample = np.random.default_rng(seed), int(num_to_sample)
    retries = 2 + int(math.log(num_to_sample)) if num_retries_per_sample == -1 else num_retries_per_sample
    chosen = [int(rng.integers(len(points)))]
    nearest = np.sum((points - points[chosen[0]]) ** 2, axis=1)
    for _ in range(num_to_sample - 1):
        best = None
        for _ in range(1 + retries):
            total = nearest.sum()
            index = int(rng.integers(len(points))) if total == 0 else int(rng.choice(len(points), p=nearest / total))
            candidate = np.minimum(nearest, np.sum((points - points[index]) ** 2, axis=1))
            if best is None or candidate.sum() < best[1].sum():
                best = (index, candidate)
        chosen.append(best[0])
        nearest = best[1]
    return np.array(chosen)


def _kmeans_plus_plus_kernel(op, session):
    seed, retries = op.attrs["seed"], op.attrs["num_retries_per_sample"]
    to_device, to_host = session.to_device, session.to_host

    def run(points, num_to_sample):
        # Drawn on the host, as every random op's numbers are; the chosen rows are taken where the points are.
        chosen = _kmeans_plus_plus(np.asarray(to_host(points)), int(to_host(num_to_sample)), seed, retries)
        return points[to_device(chosen)]
    return run


def _kmeans_plus_plus_infer(points, num_to_sample, **attrs):
    dims = static_shape(points)
    return [((None, dims[1] if dims else None), points.dtype)]


register("KmeansPlusPlusInitialization", kernel=_kmeans_plus_plus_kernel, infer=_kmeans_plus_plus_infer,
         grad=lambda op, g: [None, None], fresh=True)


def kmeans_plus_plus_initialization(points, num_to_sample, seed, num_retries_per_sample):
    """`num_to_sample` rows of `points` chosen by k-means++ (TF1's gen_clustering_ops op)."""
    return apply_op("KmeansPlusPlusInitialization", [convert_to_tensor(points), cast(num_to_sample, dtypes.int64)],
                    name="KmeansPlusPlusInitialization", seed=int(seed),
                    num_retries_per_sample=int(num_retries_per_sample))


def initialize_clusters_op(inputs, num_clusters, initial_clusters, cosine, seed, retries, centers, updated,
                           initialized):
    """An op adding the missing centers from `inputs` to the variable `centers` (and `updated`, when it is
    another variable), then setting `initialized`; once they are all there it only checks `initialized`."""
    num_data = add_n([shape(inp)[0] for inp in inputs])
    num_remaining = num_clusters - shape(centers)[0]

    named = initial_clusters if isinstance(initial_clusters, str) else None

    def choose():
        if named == RANDOM_INIT:
            everything = concat(inputs, 0)
            return cond(less_equal(num_data, num_remaining), lambda: everything,
                        lambda: gather(everything, random_uniform(reshape(num_remaining, [-1]), 0, cast(
                            num_data, dtypes.int64), dtype=dtypes.int64, seed=seed)))
        if named == KMEANS_PLUS_PLUS_INIT:
            with control_dependencies([assert_greater_equal(num_data, num_remaining)]):
                points = l2_normalize(inputs[0], 1) if cosine else inputs[0]
                return kmeans_plus_plus_initialization(points, num_remaining, seed, retries)
        if callable(initial_clusters):
            return initial_clusters(inputs, num_remaining)
        with control_dependencies([assert_equal(num_remaining, shape(initial_clusters)[0])]):
            return identity(initial_clusters)

    def add_new_centers():
        new = l2_normalize(choose(), 1) if cosine else choose()
        every = cond(equal(num_remaining, num_clusters), lambda: new, lambda: concat([centers, new], 0))
        added = assign(centers, every, validate_shape=False)
        if updated is not centers:
            added = assign(updated, added, validate_shape=False)
        return num_clusters - shape(added)[0]

    def initialize():
        with control_dependencies([assert_positive(num_remaining)]):
            now_remaining = add_new_centers()
        return cond(equal(now_remaining, 0), lambda: group(assign(initialized, True)), no_op)

    return cond(equal(num_remaining, 0), lambda: group(assert_equal(initialized, True)), initialize)
