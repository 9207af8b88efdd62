"""Nested structures (lists, tuples, namedtuples, dicts) of control-flow values: flattened to leaves, packed back.

Separate from the control-flow ops because cond and while_loop both check and rebuild the structures their
functions return, TF's `nest` in miniature; dicts are flattened in sorted key order, as TF does.
"""
from ..framework.tensor_shape import TensorShape


def flatten(x, sequences=(list, tuple)):
    """The leaves of `x` in order, and its structure (None for a single leaf). `sequences`: the types nested
    into besides dicts (tf.data passes (tuple,): a list is one value there)."""
    if isinstance(x, dict):
        keys = sorted(x)
        parts = [flatten(x[k], sequences) for k in keys]
        return [leaf for p in parts for leaf in p[0]], ("dict", keys, [p[1] for p in parts])
    if isinstance(x, sequences) and not isinstance(x, TensorShape):
        parts = [flatten(v, sequences) for v in x]
        return [leaf for p in parts for leaf in p[0]], (type(x), None, [p[1] for p in parts])
    return [x], None


def pack(structure, leaves):
    """`structure` rebuilt with `leaves` in place of its leaves."""
    it = iter(leaves)

    def build(s):
        if s is None:
            return next(it)
        kind, keys, parts = s
        values = [build(p) for p in parts]
        if kind == "dict":
            return dict(zip(keys, values))
        return kind(*values) if hasattr(kind, "_fields") else kind(values)
    return build(structure)


def same_structure(a, b):
    """True when two structures nest alike (a list and a tuple count as alike)."""
    if a is None or b is None:
        return a is None and b is None
    return ((a[0] == b[0] or a[0] != "dict" and b[0] != "dict") and a[1] == b[1] and len(a[2]) == len(b[2])
            and all(same_structure(x, y) for x, y in zip(a[2], b[2])))


def describe(structure):
    """The structure with "T" for each leaf, for error messages."""
    return repr(pack(structure, ["T"] * 10000)) if structure is not None else "a single value"
