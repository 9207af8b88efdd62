"""KL(a || b) between two distributions: one function per pair of classes, registered with RegisterKL and found
along both classes' MROs (the nearest registered pair wins), as TF1's tf.distributions does."""
import inspect

from ..framework.graph_wrappers import control_dependencies, name_scope
from ..ops.check_ops import Assert
from ..ops.core_ops import identity
from ..ops.cwise_ops import is_nan, logical_not
from ..ops.reduction_ops import reduce_any

DIVERGENCES = {}


def registered_kl(type_a, type_b):
    """The KL function registered for the nearest pair of (type_a's, type_b's) ancestors, None if none is."""
    found = [(i + j, DIVERGENCES[(a, b)]) for i, a in enumerate(inspect.getmro(type_a))
             for j, b in enumerate(inspect.getmro(type_b)) if (a, b) in DIVERGENCES]
    return min(found, key=lambda pair: pair[0])[1] if found else None


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
    """The batched KL(distribution_a || distribution_b); with allow_nan_stats=False a nan in it fails the run."""
    kl_fn = registered_kl(type(distribution_a), type(distribution_b))
    if kl_fn is None:
        raise NotImplementedError(f"No KL(distribution_a || distribution_b) registered for distribution_a type "
                                  f"{type(distribution_a).__name__} and distribution_b type "
                                  f"{type(distribution_b).__name__}: register one with tf.distributions.RegisterKL")
    with name_scope("KullbackLeibler"):
        kl = kl_fn(distribution_a, distribution_b, name=name)
        if allow_nan_stats:
            return kl
        kl = identity(kl, name="kl")
        with control_dependencies([Assert(logical_not(reduce_any(is_nan(kl))), [
                f"KL calculation between {distribution_a.name} and {distribution_b.name} returned NaN values (and "
                f"was called with allow_nan_stats=False). Values:", kl])]):
            return identity(kl, name="checked_kl")


class RegisterKL:
    """Decorator: `@RegisterKL(A, B)` on `kl_fn(a, b, name=None)` makes it KL(A || B)."""

    def __init__(self, dist_cls_a, dist_cls_b):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn):
        if not callable(kl_fn):
            raise TypeError(f"kl_fn must be callable, received: {kl_fn!r}")
        if self._key in DIVERGENCES:
            raise ValueError(f"KL({self._key[0].__name__} || {self._key[1].__name__}) has already been registered "
                             f"to: {DIVERGENCES[self._key]!r}")
        DIVERGENCES[self._key] = kl_fn
        return kl_fn
