"""TF1's histogram summaries: its fixed exponential buckets and its encoding of the counts."""
import sys

import numpy as np

from .protos import HistogramProto

DBL_MAX = sys.float_info.max


def _default_limits():
    # TF1's buckets grow by 10% from 1e-12 to 1e20, mirrored for negatives, with 0 between and DBL_MAX at the ends.
    positive, v = [], 1.0e-12
    while v < 1.0e20:
        positive.append(v)
        v *= 1.1
    positive.append(DBL_MAX)
    return np.array([-x for x in reversed(positive)] + [0.0] + positive)


BUCKET_LIMITS = _default_limits()


def histogram_proto(values):
    """The HistogramProto TF1 writes for `values`: runs of empty buckets collapse into their last one."""
    values = np.asarray(values, dtype=np.float64).ravel()
    # A value falls in the first bucket whose limit is greater than it (the last bucket takes DBL_MAX too): count
    # the values below each limit, searching the limits in the sorted values, several times faster than searching
    # each of a weight matrix's values in the limits (a histogram summary every step).
    below = np.searchsorted(np.sort(values), BUCKET_LIMITS, side="left")
    below[-1] = values.size
    counts = np.diff(below, prepend=0).astype(np.float64)
    keep = (counts > 0) | np.append(counts[1:] > 0, True)
    return HistogramProto(min=values.min() if values.size else DBL_MAX,
                          max=values.max() if values.size else -DBL_MAX,
                          num=float(values.size), sum=float(values.sum()),
                          sum_squares=float(np.dot(values, values)),
                          bucket_limit=BUCKET_LIMITS[keep], bucket=counts[keep])
