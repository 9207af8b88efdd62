"""TF1's candidate samplers (tg.nn.*_candidate_sampler) and accidental-hit detection.

A sampler op draws `num_sampled` class ids from a fixed distribution over [0, range_max) and reports how
often each sampled and each true class is expected to appear in such a draw (TF1's definitions, from
range_sampler.cc): p * num_sampled when every draw was kept, else -expm1(num_tries * log1p(-p)), where
num_tries is how many draws it took to collect num_sampled distinct ids (unique=True). Draws come from the
session's per-op random stream (Session.rng), so seeds reproduce them and checkpoints resume them.
"""
import numpy as np

from ..framework import dtypes
from ..framework.random_seed import get_seed
from .array_ops import cast
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register
from .tensor_util import static_shape

FLT_MAX = float(np.finfo(np.float32).max)  # TF1 masks accidental hits with -FLT_MAX, a float32 weight


class _LogUniform:
    """P(k) = (log(k + 2) - log(k + 1)) / log(range_max + 1): Zipf-like, for ids sorted by falling frequency."""

    def __init__(self, attrs):
        self.range, self.log_range = attrs["range_max"], np.log(attrs["range_max"] + 1.0)

    def sample(self, rng, n):
        values = np.exp(rng.random(n) * self.log_range).astype(np.int64) - 1
        return values % self.range  # rounding can reach range_max itself; TF1 wraps it around the same way

    def prob(self, values):
        return np.log((values + 2.0) / (values + 1.0)) / self.log_range


class _Uniform:
    def __init__(self, attrs):
        self.range = attrs["range_max"]

    def sample(self, rng, n):
        return rng.integers(0, self.range, n, dtype=np.int64)

    def prob(self, values):
        return np.full(values.shape, 1.0 / self.range)


class _FixedUnigram:
    """P(k) proportional to weights[k] (TF1: unigrams ** distortion, reserved ids weighing 0, this shard's ids)."""

    def __init__(self, attrs):
        self.weights = np.asarray(attrs["weights"], dtype=np.float64)
        self.cdf = np.cumsum(self.weights)
        self.total = self.cdf[-1]

    def sample(self, rng, n):
        # side="right" never lands on a zero-weight id (a reserved one).
        return np.searchsorted(self.cdf, rng.random(n) * self.total, side="right").astype(np.int64)

    def prob(self, values):
        if values.size and (values.min() < 0 or values.max() >= len(self.weights)):
            raise ValueError(f"fixed_unigram_candidate_sampler: true class {int(values.max())} (or a negative one) is "
                             f"not in [0, {len(self.weights)}): give one weight per class id")
        return self.weights[values] / self.total


DISTRIBUTIONS = {"LogUniformCandidateSampler": _LogUniform, "UniformCandidateSampler": _Uniform,
                 "FixedUnigramCandidateSampler": _FixedUnigram}


def _draw(dist, rng, n, unique):
    """(ids, num_tries): n draws, or with `unique` the first n distinct ids and how many draws that took."""
    if not unique:
        return dist.sample(rng, n), n
    drawn = np.empty(0, np.int64)
    while True:
        drawn = np.concatenate([drawn, dist.sample(rng, max(n, len(drawn)))])  # doubling: few rounds
        _, first = np.unique(drawn, return_index=True)
        if len(first) >= n:
            first = np.sort(first)[:n]
            return drawn[first], (int(first[-1]) + 1) if n else 0


def _expected_count(p, n, num_tries):
    if num_tries == n:
        return p * n
    return -np.expm1(num_tries * np.log1p(-p))


def _check_true_classes(op_name, classes, num_true):
    if classes.ndim != 2 or classes.shape[1] != num_true:
        raise ValueError(f"{op_name}: true_classes must be a matrix with num_true={num_true} columns, got shape "
                         f"{tuple(classes.shape)}")


def _sampler_kernel(op, session):
    # The true classes come to the host (a batch x num_true int array) because the stream and the tables
    # live there; the three small results go back to the device.
    attrs, stream, to_device, to_host = op.attrs, session.rng(op), session.to_device, session.to_host
    dist, n, unique = DISTRIBUTIONS[op.type](attrs), attrs["num_sampled"], attrs["unique"]

    def run(true_classes):
        classes = np.asarray(to_host(true_classes))
        _check_true_classes(op.name, classes, attrs["num_true"])
        sampled, num_tries = _draw(dist, stream.numpy_generator(), n, unique)  # not TF's algorithm: seeded only
        true_count = _expected_count(dist.prob(classes), n, num_tries)
        sampled_count = _expected_count(dist.prob(sampled), n, num_tries)
        return (to_device(sampled), to_device(true_count.astype(np.float32)),
                to_device(sampled_count.astype(np.float32)))
    return run


def _all_kernel(op, session):
    n, to_device, to_host = op.attrs["num_sampled"], session.to_device, session.to_host

    def run(true_classes):
        classes = np.asarray(to_host(true_classes))
        _check_true_classes(op.name, classes, op.attrs["num_true"])
        return (to_device(np.arange(n, dtype=np.int64)), to_device(np.ones(classes.shape, np.float32)),
                to_device(np.ones(n, np.float32)))
    return run


def _sampler_infer(true_classes, num_true, num_sampled, **attrs):
    batch = (static_shape(true_classes) or (None,))[0]
    return [((num_sampled,), dtypes.int64), ((batch, num_true), dtypes.float32), ((num_sampled,), dtypes.float32)]


def _no_grad(op, *grads):
    return [None] * len(op.inputs)  # samples and hits are not differentiable (TF1: NotDifferentiable)


for _type in DISTRIBUTIONS:
    register(_type, kernel=_sampler_kernel, infer=_sampler_infer, grad=_no_grad, fresh=True)
register("AllCandidateSampler", kernel=_all_kernel, infer=_sampler_infer, grad=_no_grad, fresh=True)


def _true_classes(true_classes, num_true, fn_name):
    t = convert_to_tensor(true_classes)
    if t.dtype.kind not in "iu":
        raise TypeError(f"{fn_name}: true_classes must be int64 class ids, got {t.name!r} of dtype {t.dtype.name}")
    if t.dtype != dtypes.int64:
        t = cast(t, dtypes.int64)
    shape = static_shape(t)
    if shape is not None and (len(shape) != 2 or shape[1] not in (None, num_true)):
        raise ValueError(f"{fn_name}: true_classes must have shape [batch_size, num_true={num_true}], got "
                         f"{t.name!r} of shape {shape}")
    return t


def _sampler(op_type, fn_name, true_classes, num_true, num_sampled, unique, range_max, seed, name, **extra):
    num_true, num_sampled, range_max = int(num_true), int(num_sampled), int(range_max)
    if num_true < 1 or num_sampled < 0 or range_max < 1:
        raise ValueError(f"{fn_name} needs num_true >= 1, num_sampled >= 0 and range_max >= 1, got "
                         f"num_true={num_true!r}, num_sampled={num_sampled!r}, range_max={range_max!r}")
    if unique and num_sampled > range_max:
        raise ValueError(f"{fn_name}: unique=True cannot draw num_sampled={num_sampled} distinct ids from "
                         f"range_max={range_max} classes; lower num_sampled or pass unique=False")
    t = _true_classes(true_classes, num_true, fn_name)
    seed1, seed2 = get_seed(seed)
    return apply_op(op_type, [t], name=name or op_type, num_true=num_true, num_sampled=num_sampled,
                    unique=bool(unique), range_max=range_max, seed=seed1, seed2=seed2, **extra)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """(sampled_candidates, true_expected_count, sampled_expected_count): ids drawn uniformly from [0, range_max)."""
    return _sampler("UniformCandidateSampler", "uniform_candidate_sampler", true_classes, num_true, num_sampled,
                    unique, range_max, seed, name)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """(sampled_candidates, true_expected_count, sampled_expected_count): ids drawn from the log-uniform (Zipfian)
    distribution P(k) = (log(k + 2) - log(k + 1)) / log(range_max + 1)."""
    return _sampler("LogUniformCandidateSampler", "log_uniform_candidate_sampler", true_classes, num_true,
                    num_sampled, unique, range_max, seed, name)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Not supported: TF1 learns the distribution from the true classes of every run, a per-session state that
    ringflow's checkpoints do not carry."""
    raise NotImplementedError("learned_unigram_candidate_sampler is not supported: its distribution is learned "
                              "across runs, a state checkpoints here do not save; use "
                              "fixed_unigram_candidate_sampler(unigrams=class counts) or "
                              "log_uniform_candidate_sampler")


def _read_vocab_file(path):
    """The last comma-separated field of each line as a float (TF1's vocab_file format)."""
    with open(path) as f:
        weights = []
        for line in f:
            try:
                weights.append(float(line.rstrip("\r\n").split(",")[-1]))
            except ValueError:
                raise ValueError(f"fixed_unigram_candidate_sampler: wrong vocabulary format at line {line!r} of "
                                 f"{path!r}: the last comma-separated field must be the count") from None
    return weights


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    """(sampled_candidates, true_expected_count, sampled_expected_count): ids drawn with probability proportional
    to unigrams[k] ** distortion (from `unigrams` or the last field of each `vocab_file` line); the first
    `num_reserved_ids` ids are never drawn; with num_shards > 1 only ids with id % num_shards == shard count,
    numbered within the shard."""
    if bool(vocab_file) == bool(len(unigrams)):
        raise ValueError("fixed_unigram_candidate_sampler needs exactly one of vocab_file= and unigrams=, got "
                         f"vocab_file={vocab_file!r} and {len(unigrams)} unigrams")
    if not 0 <= int(shard) < int(num_shards):
        raise ValueError(f"fixed_unigram_candidate_sampler needs 0 <= shard < num_shards, got shard={shard!r}, "
                         f"num_shards={num_shards!r}")
    counts = _read_vocab_file(vocab_file) if vocab_file else [float(u) for u in unigrams]
    all_weights = [0.0] * int(num_reserved_ids) + list(np.power(np.asarray(counts, np.float64), float(distortion)))
    weights = [w for i, w in enumerate(all_weights) if i % int(num_shards) == int(shard)]
    if len(weights) != int(range_max):
        raise ValueError(f"fixed_unigram_candidate_sampler: range_max={range_max!r} must equal the number of this "
                         f"shard's ids (reserved ones included), {len(weights)}")
    positive = sum(w > 0 for w in weights)
    if positive == 0 or (unique and positive < int(num_sampled)):
        raise ValueError(f"fixed_unigram_candidate_sampler: only {positive} ids have a positive weight, too few to "
                         f"draw num_sampled={num_sampled!r} (unique={unique!r})")
    return _sampler("FixedUnigramCandidateSampler", "fixed_unigram_candidate_sampler", true_classes, num_true,
                    num_sampled, unique, range_max, seed, name, weights=tuple(weights))


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Every class 0 .. num_sampled - 1, each with expected count 1 (a test aid: the full softmax)."""
    return _sampler("AllCandidateSampler", "all_candidate_sampler", true_classes, num_true, num_sampled, unique,
                    num_sampled, seed, name)


def _hits(true_classes, sampled):
    """(found, position): whether each true class was sampled and where (its last position, as TF1 keeps)."""
    xp = get_array_module(true_classes)
    order = xp.argsort(sampled, kind="stable")
    ordered = sampled[order]
    at = xp.searchsorted(ordered, true_classes, side="right") - 1
    safe = xp.maximum(at, 0)
    return (at >= 0) & (ordered[safe] == true_classes), order[safe]


def _accidental_hits(true_classes, sampled, num_true):
    xp = get_array_module(true_classes)
    if len(sampled) == 0:
        empty = xp.zeros(0, np.int64)
        return empty.astype(np.int32), empty, empty.astype(np.float32)
    found, position = _hits(true_classes, sampled)
    rows, cols = xp.nonzero(found)
    ids = position[rows, cols].astype(np.int64)
    return rows.astype(np.int32), ids, xp.full(ids.shape, -FLT_MAX, dtype=np.float32)


def _hit_mask(true_classes, sampled, dtype):
    """[batch, num_sampled]: -FLT_MAX where a sampled id is one of the row's true classes, else 0."""
    xp = get_array_module(true_classes)
    out = xp.zeros((true_classes.shape[0], len(sampled)), dtype=dtype)
    if len(sampled):
        found, position = _hits(true_classes, sampled)
        rows = xp.broadcast_to(xp.arange(true_classes.shape[0])[:, None], true_classes.shape)
        with np.errstate(over="ignore"):  # float16 has no -FLT_MAX: it becomes -inf, as TF1's cast does
            out[rows[found], position[found]] = np.float32(-FLT_MAX).astype(dtype)
    return out


register("ComputeAccidentalHits", _accidental_hits, grad=_no_grad, fresh=True,
         infer=lambda t, s, num_true: [((None,), dtypes.int32), ((None,), dtypes.int64), ((None,), dtypes.float32)])
register("AccidentalHitMask", _hit_mask, grad=_no_grad, fresh=True,
         infer=lambda t, s, dtype: [(((static_shape(t) or (None,))[0], (static_shape(s) or (None,))[0]), dtype)])


def _sampled_ids(sampled_candidates, fn_name):
    s = convert_to_tensor(sampled_candidates)
    if s.dtype.kind not in "iu" or s.ndim not in (None, 1):
        raise ValueError(f"{fn_name}: sampled_candidates must be a vector of int64 ids, got {s.name!r} of dtype "
                         f"{s.dtype.name} and shape {s.shape}")
    if s.dtype != dtypes.int64:
        s = cast(s, dtypes.int64)
    return s


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(indices, ids, weights): for each true class also among the sampled ones, its row (int32), its position
    in sampled_candidates (int64) and the weight -FLT_MAX (float32) that removes that logit. `seed` is unused."""
    t = _true_classes(true_classes, int(num_true), "compute_accidental_hits")
    s = _sampled_ids(sampled_candidates, "compute_accidental_hits")
    return tuple(apply_op("ComputeAccidentalHits", [t, s], name=name or "ComputeAccidentalHits",
                          num_true=int(num_true)))


def accidental_hit_mask(true_classes, sampled_candidates, num_true, dtype, name=None):
    """compute_accidental_hits as a dense [batch, num_sampled] mask to add to sampled logits (TF1 adds the
    SparseToDense of the hits)."""
    t = _true_classes(true_classes, int(num_true), "accidental_hit_mask")
    s = _sampled_ids(sampled_candidates, "accidental_hit_mask")
    return apply_op("AccidentalHitMask", [t, s], name=name or "SparseToDense", dtype=dtypes.as_dtype(dtype))
