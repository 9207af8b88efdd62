"""Tensor contractions and matrix helpers: einsum (its gradient is einsum again), tensordot, norm, eye, trace."""
import string

import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from .array_ops import cast, concat, reshape, shape, transpose
from .core_ops import constant, convert_to_tensor
from .fill_ops import range as range_
from .math_ops import abs as abs_, equal, ones_like, sqrt, square
from .reduction_ops import reduce_max, reduce_sum
from ..framework.registry import apply_op, check_same_dtype, get_array_module, register
from .tensor_util import argument_lookup, static_ints, static_shape
from .pad_ops import tile
from .shape_tensors import known_dim
from .shape_ops import size
from .stack_ops import stack, unstack


def _parse(equation, count):
    """(input subscripts, output subscripts) of an equation; an implicit output is numpy's (sorted singles)."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) != count:
        raise ValueError(f"einsum equation {equation!r} names {len(terms)} operands, but {count} were given")
    if not arrow:
        letters = "".join(terms).replace("...", "")
        output = ("..." if "..." in inputs else "") + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return terms, output


def _letters(term):
    return term.replace("...", "")


def _einsum_infer(*xs, equation):
    check_same_dtype("Einsum", xs)
    terms, output = _parse(equation, len(xs))
    dims = {}
    for x, term in zip(xs, terms):
        shape = static_shape(x)
        if shape is None or "..." in term:
            return [(None if "..." in output or shape is None else tuple(dims.get(c) for c in output), xs[0].dtype)]
        if len(shape) != len(term):
            raise ValueError(f"einsum: operand {x.name!r} of shape {x.shape} does not fit subscripts {term!r}")
        for c, d in zip(term, shape):
            if d is not None and dims.get(c) not in (None, d):
                raise ValueError(f"einsum {equation!r}: dimension {c!r} is {dims[c]} in one operand and {d} in "
                                 f"{x.name!r}")
            dims[c] = d if d is not None else dims.get(c)
    return [(tuple(dims.get(c) for c in output), xs[0].dtype)]


def _einsum_grad(op, g):
    terms, output = _parse(op.attrs["equation"], len(op.inputs))
    grads = []
    for i, (x, term) in enumerate(zip(op.inputs, terms)):
        if len(set(_letters(term))) != len(_letters(term)):
            raise NotImplementedError(f"einsum gradient for the repeated subscripts of {term!r} in "
                                      f"{op.attrs['equation']!r} (a diagonal) is not implemented")
        others = [t for k, t in enumerate(terms) if k != i]
        # ones_like(x) brings in the subscripts that only x has, which the gradient broadcasts over.
        equation = ",".join([output, *others, term]) + "->" + term
        grads.append(apply_op("Einsum", [g, *[t for k, t in enumerate(op.inputs) if k != i], ones_like(x)],
                              equation=equation))
    return grads


def _einsum(*xs, equation):
    xp = get_array_module(xs[0])
    return xp.asarray(xp.einsum(equation, *xs, optimize=len(xs) > 2))  # a 0-d result stays an array


register("Einsum", _einsum, infer=_einsum_infer, grad=_einsum_grad, fresh=True)


def einsum(equation, *inputs, **kwargs):
    """The Einstein summation `equation` (numpy's notation, "..." included) over `inputs`."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"einsum got unexpected keyword arguments {sorted(kwargs)}")
    xs = [convert_to_tensor(x) for x in inputs]
    _parse(equation, len(xs))
    return apply_op("Einsum", xs, name=name or "einsum", equation=equation.replace(" ", ""))


def tensordot(a, b, axes, name=None):
    """Sum over a's `axes[0]` and b's `axes[1]` (or a's last and b's first `axes` dims), the rest in order."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if a.ndim is None or b.ndim is None:
        raise NotImplementedError(f"tensordot needs operands of known rank, got {a.shape} and {b.shape}")
    if np.ndim(axes) == 0:
        n = int(axes)
        if n > min(a.ndim, b.ndim) or n < 0:
            raise ValueError(f"tensordot: axes={n} is more than the ranks {a.ndim} and {b.ndim} allow")
        a_axes, b_axes = list(range(a.ndim - n, a.ndim)), list(range(n))
    else:
        a_axes, b_axes = ([int(v) for v in np.ravel(x)] for x in axes)
        if len(a_axes) != len(b_axes):
            raise ValueError(f"tensordot: axes {axes!r} name {len(a_axes)} axes of a but {len(b_axes)} of b")
    a_axes, b_axes = [d % a.ndim for d in a_axes], [d % b.ndim for d in b_axes]
    letters = iter(string.ascii_letters)
    a_sub = [next(letters) for _ in range(a.ndim)]
    b_sub = [next(letters) for _ in range(b.ndim)]
    for i, j in zip(a_axes, b_axes):
        b_sub[j] = a_sub[i]
    out = [c for k, c in enumerate(a_sub) if k not in a_axes] + [c for k, c in enumerate(b_sub) if k not in b_axes]
    return einsum(f"{''.join(a_sub)},{''.join(b_sub)}->{''.join(out)}", a, b, name=name or "Tensordot")


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # noqa: A002 - TF1's names
    """The vector norm (euclidean/2, 1, inf, or any p > 0) over `axis` (all axes when None); 'fro' and
    'euclidean' over a pair of axes give the Frobenius norm."""
    keepdims = bool(argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    if isinstance(axis, (list, tuple)) and len(axis) == 2 and ord not in ("fro", "euclidean", 2, 2.0):
        raise NotImplementedError(f"norm with ord={ord!r} over two axes (a matrix norm) is not implemented; "
                                  "use 'fro' or 'euclidean'")
    with name_scope(name or "norm"):
        x = convert_to_tensor(tensor)
        if ord in ("euclidean", "fro", 2, 2.0):
            return sqrt(reduce_sum(square(x), axis=axis, keepdims=keepdims))
        if ord in (1, 1.0):
            return reduce_sum(abs_(x), axis=axis, keepdims=keepdims)
        if ord == np.inf:
            return reduce_max(abs_(x), axis=axis, keepdims=keepdims)
        if isinstance(ord, (int, float)) and ord > 0:
            return reduce_sum(abs_(x) ** float(ord), axis=axis, keepdims=keepdims) ** (1.0 / ord)
        raise ValueError(f"norm: ord must be 'euclidean', 'fro', 1, 2, np.inf or a positive number, got {ord!r}")


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """The identity matrix (num_rows x num_columns), repeated over `batch_shape` (Python ints); the sizes may be
    scalar Tensors such as tg.shape(x)[0]."""
    dtype = dtypes.as_dtype(dtype)
    columns = num_rows if num_columns is None else num_columns
    batch = [] if batch_shape is None else static_ints(batch_shape, "eye batch_shape")
    sizes = [s if isinstance(s, (int, np.integer)) else known_dim(convert_to_tensor(s)) for s in (num_rows, columns)]
    if all(s is not None for s in sizes):
        matrix = np.eye(sizes[0], sizes[1], dtype=dtype)
        return constant(np.broadcast_to(matrix, (*batch, *matrix.shape)), name=name or "eye")
    with name_scope(name or "eye"):
        rows, cols = (range_(convert_to_tensor(s, dtype=dtypes.int32)) for s in (num_rows, columns))
        matrix = cast(equal(rows[:, None], cols[None, :]), dtype)
        return tile(matrix[(None,) * len(batch)], [*batch, 1, 1]) if batch else matrix


def _square_eye(x, what):
    shape = static_shape(x)
    if shape is None or len(shape) < 2 or shape[-1] is None or shape[-2] != shape[-1]:
        raise NotImplementedError(f"{what} needs {x.name!r} to end in square dims known while building, "
                                  f"got shape {x.shape}")
    return constant(np.eye(shape[-1], dtype=x.dtype))


def matrix_diag_part(input, name=None):  # noqa: A002 - TF1's name
    """The main diagonal of each (square) matrix in the last two dims."""
    with name_scope(name or "matrix_diag_part"):
        x = convert_to_tensor(input)
        return reduce_sum(x * _square_eye(x, "matrix_diag_part"), axis=-1)


def trace(x, name=None):
    """The sum of each (square) matrix's diagonal over the last two dims."""
    with name_scope(name or "trace"):
        x = convert_to_tensor(x)
        return reduce_sum(x * _square_eye(x, "trace"), axis=[-2, -1])


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swap the last two dims."""
    a = convert_to_tensor(a)
    if a.ndim is None or a.ndim < 2:
        raise ValueError(f"matrix_transpose needs a tensor of known rank >= 2, got {a.name!r} of shape {a.shape}")
    return transpose(a, list(range(a.ndim - 2)) + [a.ndim - 1, a.ndim - 2], name=name)


def tensor_diag(diagonal, name=None):
    """TF1's tf.diag: the tensor of shape D + D holding `diagonal` (shape D) where the two index tuples agree."""
    with name_scope(name or "Diag"):
        d = convert_to_tensor(diagonal, name="diagonal")
        if d.shape.ndims == 0:
            raise ValueError(f"tf.diag needs a tensor of rank >= 1, got {d.name!r} of shape {d.shape}")
        flat = reshape(d, [-1])
        square_ = flat[:, None] * eye(size(flat), dtype=d.dtype)  # row i holds d[i] at column i
        return reshape(square_, concat([shape(d), shape(d)], 0))


def cross(a, b, name=None):
    """TF1's tf.cross (tf.linalg.cross): the cross product of 3-vectors along the last axis of a and b."""
    with name_scope(name or "Cross"):
        a, b = convert_to_tensor(a, name="a"), convert_to_tensor(b, name="b")
        for t in (a, b):
            if t.shape.ndims == 0 or t.shape.ndims is not None and t.shape[-1] not in (None, 3):
                raise ValueError(f"tf.cross needs vectors of 3 in the last axis, got {t.name!r} of shape {t.shape}")
        (a1, a2, a3), (b1, b2, b3) = unstack(a, 3, axis=-1), unstack(b, 3, axis=-1)
        return stack([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1], axis=-1)
