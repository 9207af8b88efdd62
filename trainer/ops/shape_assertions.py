"""tf.debugging.assert_shapes: the shapes of several tensors against one specification, where a named dimension
("N") must have one size wherever it appears, a number that size, None or "." any size, and a leading Ellipsis
(...) or "*" any number of leading dimensions. A scalar counts as shape (1,), and a specification of length 0 or 1 admits
ranks 0 and 1, as TF has them. What the static shapes decide raises ValueError now; the rest is checked when the
returned op runs (InvalidArgumentError)."""
from ..framework.graph_wrappers import control_dependencies, name_scope
from .array_ops import shape as shape_of
from .check_ops import Assert, assert_rank
from .control_flow_ops import cond
from .core_ops import constant, convert_to_tensor, group
from .math_ops import equal
from .shape_ops import rank as rank_of
from .type_checks import assert_rank_at_least, assert_rank_in

ANY_LEADING = (Ellipsis, "*")  # TF takes the Ellipsis object, not the string "...", which is a name


def _explicit(symbol):
    try:
        return int(symbol) if symbol is not None and not isinstance(symbol, bool) else None
    except (TypeError, ValueError):
        return None


def _sizes(x):
    """Each dimension's size: an int where the static shape knows it, else a scalar Tensor; a scalar is (1,)."""
    if x.ndim == 0:
        return [1]
    dynamic = shape_of(x)
    if x.ndim is None:
        return cond(equal(rank_of(x), 0), lambda: constant([1]), lambda: dynamic)
    return [d if d is not None else dynamic[i] for i, d in enumerate(x.shape.as_list())]


def _spec(x, spec, prefix):
    if not hasattr(spec, "__iter__") and not hasattr(spec, "__getitem__"):
        raise ValueError(f"{prefix}Tensor {x.name}.  Specified shape must be an iterable.  An iterable has the "
                         f"attribute `__iter__` or `__getitem__`.  Received specified shape: {spec}")
    spec = tuple(spec)
    for i, symbol in enumerate(spec):
        if isinstance(symbol, str) or symbol is Ellipsis:
            if symbol in ANY_LEADING and i != 0:
                raise ValueError(f"{prefix}Tensor {x.name} specified shape index {i}.  Symbol `...` or `*` for a "
                                 "variable number of unspecified dimensions is only allowed as the first entry")
    leading = bool(spec) and (spec[0] is Ellipsis or spec[0] in ANY_LEADING)
    return leading, (spec[1:] if leading else spec) or (1,)


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """An op checking every (tensor, specification) pair of `shapes` (a list of pairs or a dict) when run."""
    pairs = list(shapes.items() if isinstance(shapes, dict) else shapes)
    prefix = f"{message}.  " if message else ""
    with name_scope(name or "assert_shapes"):
        checks = [(convert_to_tensor(x), s) for x, s in pairs if s is not None]
        parsed = [(x, *_spec(x, s, prefix)) for x, s in checks]
        ranks = []
        for x, leading, spec in parsed:
            if leading:
                if len(spec) > 1:
                    ranks.append(assert_rank_at_least(x, len(spec), message=message))
            elif len(spec) <= 1:
                ranks.append(assert_rank_in(x, [0, 1], message=message))
            else:
                ranks.append(assert_rank(x, len(spec), message=message))
        seen, sizes_checked = {}, []
        for x, leading, spec in parsed:
            sizes = _sizes(x)
            for i, symbol in enumerate(spec):
                if symbol is None or symbol == ".":
                    continue
                dim = i - len(spec) if leading else i
                with control_dependencies(ranks):
                    actual = sizes[dim]
                wanted = _explicit(symbol)
                if wanted is None and symbol not in seen:
                    seen[symbol] = (actual, x, dim)
                    continue
                if wanted is None:
                    wanted, by, at = seen[symbol]
                    why = f"Specified by tensor {by.name} dimension {at}"
                else:
                    why = "Specified explicitly"
                if isinstance(actual, int) and isinstance(wanted, int):
                    if actual != wanted:
                        raise ValueError(f"{prefix}{why}.  Tensor {x.name} dimension {dim} must have size {wanted}.  "
                                         f"Received size {actual}, shape {x.shape}")
                    continue
                sizes_checked.append(Assert(
                    equal(convert_to_tensor(actual), convert_to_tensor(wanted)),
                    data if data is not None else [prefix, why, f"Tensor {x.name} dimension", dim, "must have size",
                                                   wanted, "Received shape: ", shape_of(x)], summarize=summarize))
    with control_dependencies(ranks):
        return group(*sizes_checked)
