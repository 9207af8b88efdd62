"""The elements of a tf.data Dataset: nested structures (tuples, namedtuples, dicts) of tensors, as tf.data nests them.

tf.data nests values differently from tg.cond (ops/nest.py) in one rule, TF1's: a Python list is a value, not a
structure, so `from_tensor_slices([1, 2, 3])` is one int32 tensor and a list of tensors is stacked into one.
Dicts are flattened in sorted key order. Structures use ops/nest.py's format, so its `pack` rebuilds them.
A Spec is what a dataset knows of its elements while the graph is built: the structure and, per component,
a TensorShape and a dtype.
"""
from ..framework import dtypes
from ..framework.tensor import Tensor
from ..ops.core_ops import convert_to_tensor
from ..ops import nest
from ..ops.nest import describe, pack
from ..ops.sparse_tensor import SparseTensor, SparseTensorValue
from ..ops.stack_ops import stack
from ..framework.tensor_shape import TensorShape


def flatten(value):
    """The components of a tf.data element in order, and its structure (None for a single component)."""
    return nest.flatten(value, sequences=(tuple,))


def flatten_types(output_types):
    """The dtypes of a nested structure of dtypes, and the structure."""
    leaves, structure = flatten(output_types)
    return [dtypes.as_dtype(t) for t in leaves], structure


def flatten_up_to(structure, value, what):
    """The parts of `value` at the leaves of `structure` (a leaf of `structure` takes a whole sub-value, e.g. a
    shape given as a tuple); TypeError naming `what` when `value` does not nest like `structure`."""
    if structure is None:
        return [value]
    kind, keys, parts = structure
    if kind == "dict":
        if not isinstance(value, dict) or sorted(value) != keys:
            raise TypeError(f"{what} {value!r} does not match the element structure {describe(structure)}")
        values = [value[k] for k in keys]
    else:
        if not isinstance(value, (tuple, list)) or isinstance(value, TensorShape) or len(value) != len(parts):
            raise TypeError(f"{what} {value!r} does not match the element structure {describe(structure)}")
        values = list(value)
    return [leaf for part, v in zip(parts, values) for leaf in flatten_up_to(part, v, what)]


def substitute(structure, substructures):
    """`structure` with its leaves replaced, in order, by `substructures` (how Dataset.zip nests elements)."""
    it = iter(substructures)

    def build(s):
        if s is None:
            return next(it)
        kind, keys, parts = s
        return kind, keys, [build(p) for p in parts]
    return build(structure)


def to_tensor(value, dtype=None, name=None):
    """`value` as a Tensor: a list holding tensors is stacked (TF1 packs it), anything else converted."""
    if isinstance(value, list) and any(isinstance(v, (Tensor, list)) for v in value):
        return stack([to_tensor(v, dtype) for v in value], name=name or "packed")
    return convert_to_tensor(value, dtype=dtype, name=name)


def normalize(element, what, sparse=False):
    """The components of `element` as Tensors (SparseTensors too, where `sparse`), and its structure; TypeError
    naming `what` for a value that is not a tensor (None, a Dataset, an object)."""
    leaves, structure = flatten(element)
    tensors = []
    for i, leaf in enumerate(leaves):
        if sparse and isinstance(leaf, (SparseTensor, SparseTensorValue)):
            tensors.append(SparseTensor.from_value(leaf))
            continue
        try:
            tensors.append(to_tensor(leaf, name=f"component_{i}"))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{what}: component {i} of {element!r} is {leaf!r}, which is not a tensor "
                            f"({exc})") from None
    return tensors, structure


def most_specific_compatible_shape(a, b):
    """The most specific shape both `a` and `b` fit (unknown where they differ)."""
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


class SparseType:
    """The type of an element's component that is a SparseTensor of `dtype` values: output_types says `dtype`,
    output_classes SparseTensor, as TF1's do; it runs as three tensors (indices, values, dense_shape)."""

    def __init__(self, dtype):
        self.dtype = dtypes.as_dtype(dtype)

    name = property(lambda self: self.dtype.name)

    def __eq__(self, other):
        return isinstance(other, SparseType) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("sparse", self.dtype))

    def __repr__(self):
        return f"SparseTensor of {self.dtype.name}"


def physical(shape, dtype):
    """The (shape, dtype) of the tensors one component runs as: three for a SparseType, else itself."""
    if not isinstance(dtype, SparseType):
        return [(shape, dtype)]
    rank = shape.ndims
    return [((None, rank), dtypes.int64), ((None,), dtype.dtype), ((rank,), dtypes.int64)]


def expand(values):
    """An element's values as the arrays its tensors carry: a SparseTensorValue's three parts in its place."""
    return [a for v in values for a in (v if isinstance(v, SparseTensorValue) else (v,))]


def sparse_of(parts, shape):
    """The SparseTensor of a component's three tensors, of the component's static dense shape."""
    sparse = SparseTensor(*parts)
    sparse.set_shape(shape)
    return sparse


class DatasetComponent:
    """The type of an element's component that is itself a dataset (each window of Dataset.window), as TF's
    DatasetSpec describes it: `spec` is its elements' Spec, wrap(stage) the Dataset a function is given."""

    def __init__(self, spec, wrap):
        self.spec, self.wrap = spec, wrap

    def __eq__(self, other):
        return (isinstance(other, DatasetComponent) and self.spec.same_types(other.spec)
                and self.spec.shapes == other.spec.shapes)

    def __hash__(self):
        return hash(tuple(self.spec.types))

    def __repr__(self):
        return f"DatasetSpec({self.spec!r})"


class Spec:
    """The structure of a dataset's elements and each component's static shape and dtype (a DatasetComponent
    for a component that is a dataset)."""

    def __init__(self, structure, shapes, types):
        self.structure = structure
        self.shapes = [TensorShape(s) for s in shapes]
        self.types = [t if isinstance(t, (DatasetComponent, SparseType)) else dtypes.as_dtype(t) for t in types]

    @classmethod
    def of(cls, tensors, structure):
        """The Spec of these tensors (a SparseTensor is a component of SparseType)."""
        return cls(structure, [t.shape for t in tensors],
                   [SparseType(t.dtype) if isinstance(t, SparseTensor) else t.dtype for t in tensors])

    def physical(self):
        """The (shape, dtype) of every tensor the components run as, in order."""
        return [p for s, t in zip(self.shapes, self.types) for p in physical(s, t)]

    def gather(self, arrays):
        """The element's values from the arrays of its tensors (three make a SparseTensorValue)."""
        it = iter(arrays)
        return [SparseTensorValue(next(it), next(it), next(it)) if isinstance(t, SparseType) else next(it)
                for t in self.types]

    def pack_tensors(self, tensors):
        """The element's structure from its tensors: three make a SparseTensor of the component's static shape."""
        it, parts = iter(tensors), []
        for shape, dtype in zip(self.shapes, self.types):
            if isinstance(dtype, SparseType):
                parts.append(sparse_of([next(it), next(it), next(it)], shape))
            else:
                parts.append(next(it))
        return pack(self.structure, parts)

    def output_types(self):
        return pack(self.structure, [t.dtype if isinstance(t, SparseType) else t for t in self.types])

    def output_shapes(self):
        return pack(self.structure, [t if isinstance(t, DatasetComponent) else s for s, t in
                                     zip(self.shapes, self.types)])

    def output_classes(self):
        return pack(self.structure, [t if isinstance(t, DatasetComponent) else SparseTensor
                                     if isinstance(t, SparseType) else Tensor for t in self.types])

    def datasets(self):
        """The indices of the components that are datasets."""
        return [i for i, t in enumerate(self.types) if isinstance(t, DatasetComponent)]

    def same_types(self, other):
        """True when `other` has this structure and these dtypes."""
        return _same_structure(self.structure, other.structure) and self.types == other.types

    def __repr__(self):
        shapes = pack(self.structure, [str(s) for s in self.shapes])
        types = pack(self.structure, [repr(t) if isinstance(t, (DatasetComponent, SparseType)) else f"tf.{t.name}"
                                      for t in self.types])
        return f"shapes: {shapes}, types: {types}".replace("'", "")


def _same_structure(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a[0] == b[0] and a[1] == b[1] and len(a[2]) == len(b[2]) and all(
        _same_structure(x, y) for x, y in zip(a[2], b[2]))
