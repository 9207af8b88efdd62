"""Keras' backend map and folds over the first axis of a tensor."""
from ...ops import functional_ops


def map_fn(fn, elems, name=None, dtype=None):
    """fn applied to each element along axis 0, the results stacked."""
    return functional_ops.map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn, elems, initializer=None, name=None):
    """fn(accumulator, element) over the elements, left to right."""
    return functional_ops.foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    """fn(accumulator, element) over the elements, right to left."""
    return functional_ops.foldr(fn, elems, initializer=initializer, name=name)
