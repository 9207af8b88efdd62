"""tf.nest (tensorflow.python.util.nest): nested lists, tuples, namedtuples and dicts flattened to their leaves in
TF's order (dict keys sorted), rebuilt from leaves, mapped and compared; on ops/nest.py, the one flattening that
control flow and tf.data share."""
from ...ops import nest as _nest_ops

SEQUENCES = (list, tuple)


def is_nested(seq):
    """Whether `seq` is a list, tuple or dict that tf.nest goes into (a string or a Tensor is a leaf)."""
    return isinstance(seq, SEQUENCES + (dict,))


def flatten(structure, expand_composites=False):
    """The leaves of `structure` in order (dict values by sorted key); a leaf alone is [leaf]."""
    return _nest_ops.flatten(structure, SEQUENCES)[0]


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """`structure` rebuilt with the leaves of `flat_sequence` in place of its own."""
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence!r}\nthat is not a sequence: give a list of the "
                        "leaves")
    leaves, shape = _nest_ops.flatten(structure, SEQUENCES)
    if len(leaves) != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {len(leaves)} atoms, but flat_sequence had "
                         f"{len(flat_sequence)} items. Structure: {structure!r}, flat_sequence: {flat_sequence!r}.")
    return _nest_ops.pack(shape, list(flat_sequence))


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """ValueError unless the two nest alike; TypeError when check_types and a list stands where a tuple does."""
    _, a = _nest_ops.flatten(nest1, SEQUENCES)
    _, b = _nest_ops.flatten(nest2, SEQUENCES)
    if not _nest_ops.same_structure(a, b):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: {nest1!r}"
                         f"\n\nSecond structure: {nest2!r}")
    if check_types and not _same_types(a, b):
        raise TypeError(f"The two structures don't have the same sequence type. First structure has type "
                        f"{type(nest1).__name__}, while second structure has type {type(nest2).__name__}: pass "
                        "check_types=False to compare the nesting alone")


def _same_types(a, b):
    if a is None or b is None:
        return True
    return a[0] == b[0] and all(_same_types(x, y) for x, y in zip(a[2], b[2]))


def map_structure(func, *structure, **kwargs):
    """`func` applied to the leaves at the same place in each structure, in the first structure's shape."""
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types` and `expand_composites`, not: {kwargs!r}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    columns = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*columns)])
