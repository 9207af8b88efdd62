"""Ops on tf.string tensors (object arrays of bytes): join, split, substr, length, case, strip, regex_replace,
to_number, as_string and the hash buckets. None has a gradient, as in TF; the kernels run on the host, element by
element."""
import re

import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, broadcast_shapes, host_kernel, infer_same, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .kernels.string_hash import fingerprint64, hash64, siphash
from .logging_ops import summarize_v2
from .reduction_ops import reduction_args
from .sparse_tensor import SparseTensor
from .tensor_util import argument_lookup, constant_value, static_shape

UNITS = ("BYTE", "UTF8_CHAR")


def _each(fn, *arrays):
    """fn over the broadcast elements of the arrays, as a tf.string (object) array."""
    arrays = np.broadcast_arrays(*[np.asarray(a, dtype=object) for a in arrays])
    out = np.empty(arrays[0].shape, dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = fn(*[a[index] for a in arrays])
    return out


def _string(x, what):
    x = convert_to_tensor(x, dtype=dtypes.string if not hasattr(x, "dtype") else None)
    if x.dtype != dtypes.string:
        raise TypeError(f"{what} takes a tf.string tensor, got {x.name!r} of dtype {x.dtype.name}; convert numbers "
                        "with tf.as_string")
    return x


def _unit(unit):
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {list(UNITS)}, got {unit!r}")
    return unit


def _as_string_infer(*inputs, **attrs):
    return [(broadcast_shapes(*[t.shape for t in inputs]), dtypes.string)]


def _join(*inputs, separator, **counts):  # counts: TF's N, which a graph TF wrote brings along
    separator = _bytes(separator)
    return _each(lambda *parts: separator.join(parts), *inputs)


register("StringJoin", kernel=host_kernel(_join), infer=_as_string_infer)


def string_join(inputs, separator="", name=None):
    """The strings of `inputs` (same shapes, or scalars) joined elementwise with `separator`."""
    tensors = [_string(x, "string_join") for x in inputs]
    return apply_op("StringJoin", tensors, name=name or "StringJoin", separator=_bytes(separator))


def _bytes(text):
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def _length(x, unit):
    return _each(lambda s: len(s.decode("utf-8")) if unit == "UTF8_CHAR" else len(s), x).astype(np.int32)


register("StringLength", kernel=host_kernel(_length), infer=lambda x, unit: [(x.shape, dtypes.int32)])


def string_length(input, name=None, unit="BYTE"):  # noqa: A002 - TF1's argument name
    """The length of each string, in bytes or (unit="UTF8_CHAR") in Unicode characters."""
    return apply_op("StringLength", [_string(input, "strings.length")], name=name or "StringLength", unit=_unit(unit))


def _substr(x, pos, length, unit):
    def one(s, p, n):
        text = s.decode("utf-8") if unit == "UTF8_CHAR" else s
        if not -len(text) <= p <= len(text):
            raise InvalidArgumentError(f"Substr: pos {p} is out of range for string {s!r} of length {len(text)}")
        p = p % len(text) if p < 0 else p
        part = text[p:p + max(int(n), 0)]
        return part.encode("utf-8") if unit == "UTF8_CHAR" else part
    return _each(one, x, pos, length)


register("Substr", kernel=host_kernel(_substr), infer=_as_string_infer)


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 - TF1's argument names
    """The substring of each string starting at `pos` (negative: from the end) of `len` bytes or characters."""
    x = _string(input, "substr")
    pos, length = convert_to_tensor(pos), convert_to_tensor(len)
    for what, t in (("pos", pos), ("len", length)):
        if t.dtype.kind != "i":
            raise TypeError(f"substr's {what} must be int32 or int64, got {t.name!r} of dtype {t.dtype.name}")
    return apply_op("Substr", [x, pos, length], name=name or "Substr", unit=_unit(unit))


def _case(method):
    return host_kernel(lambda x, encoding: _each(lambda s: getattr(s.decode("utf-8"), method)().encode("utf-8")
                                                 if encoding else getattr(s, method)(), x))


register("StringLower", kernel=_case("lower"), infer=infer_same)
register("StringUpper", kernel=_case("upper"), infer=infer_same)
register("StringStrip", kernel=host_kernel(lambda x: _each(lambda s: s.strip(b" \t\n\v\f\r"), x)), infer=infer_same)


def lower(input, encoding="", name=None):  # noqa: A002 - TF1's argument name
    """Each string in lower case (ASCII letters only, unless encoding="utf-8")."""
    return apply_op("StringLower", [_string(input, "strings.lower")], name=name or "StringLower", encoding=encoding)


def upper(input, encoding="", name=None):  # noqa: A002 - TF1's argument name
    """Each string in upper case (ASCII letters only, unless encoding="utf-8")."""
    return apply_op("StringUpper", [_string(input, "strings.upper")], name=name or "StringUpper", encoding=encoding)


def string_strip(input, name=None):  # noqa: A002 - TF1's argument name
    """Each string without its leading and trailing whitespace."""
    return apply_op("StringStrip", [_string(input, "strings.strip")], name=name or "StringStrip")


def _rewrite(rewrite):
    # RE2 writes a group as \1 and the whole match as \0; Python's re.sub spells the whole match \g<0>
    return re.sub(rb"\\0", rb"\\g<0>", _bytes(rewrite))


def _compile(pattern):
    try:
        return re.compile(_bytes(pattern))  # an imported graph's attr may come back as str
    except re.error as error:
        raise InvalidArgumentError(f"Invalid pattern: {pattern!r}, error: {error}") from None


def _regex_replace(x, pattern, rewrite, replace_global):
    compiled, rewrite = _compile(pattern), _rewrite(rewrite)
    return _each(lambda s: compiled.sub(rewrite, s, count=0 if replace_global else 1), x)


def _regex_full_match(x, pattern):
    compiled = _compile(pattern)
    return _each(lambda s: compiled.fullmatch(s) is not None, x).astype(bool)


register("StaticRegexReplace", kernel=host_kernel(_regex_replace), infer=infer_same)
register("StaticRegexFullMatch", kernel=host_kernel(_regex_full_match),
         infer=lambda x, pattern: [(x.shape, dtypes.bool)])


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002 - TF1's argument name
    """Each string with the matches of the RE2 `pattern` replaced by `rewrite` (\\1 a group; all matches, or the
    first when replace_global is False)."""
    return apply_op("StaticRegexReplace", [_string(input, "regex_replace")], name=name or "StaticRegexReplace",
                    pattern=_bytes(pattern), rewrite=_bytes(rewrite), replace_global=bool(replace_global))


def regex_full_match(input, pattern, name=None):  # noqa: A002 - TF1's argument name
    """Whether each whole string matches the RE2 `pattern` (bool)."""
    return apply_op("StaticRegexFullMatch", [_string(input, "regex_full_match")], name=name or "StaticRegexFullMatch",
                    pattern=_bytes(pattern))


def _to_number(x, out_type):
    dtype = np.dtype(out_type)

    def one(s):
        text = s.decode("utf-8", "replace")
        try:
            value = float(s) if dtype.kind == "f" else int(s)
        except ValueError:
            raise InvalidArgumentError(f"StringToNumberOp could not correctly convert string: {text}") from None
        if dtype.kind == "i" and not np.iinfo(dtype).min <= value <= np.iinfo(dtype).max:
            raise InvalidArgumentError(f"StringToNumberOp could not correctly convert string: {text} (out of range "
                                       f"for {dtype.name})")
        return value
    return _each(one, x).astype(dtype)


register("StringToNumber", kernel=host_kernel(_to_number), infer=lambda x, out_type: [(x.shape, out_type)])


def string_to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Each string parsed as a number of `out_type` (float32, float64, int32 or int64)."""
    out_type = dtypes.as_dtype(out_type)
    if out_type not in (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise TypeError(f"string_to_number's out_type must be float32, float64, int32 or int64, got {out_type.name}")
    return apply_op("StringToNumber", [_string(string_tensor, "string_to_number")], name=name or "StringToNumber",
                    out_type=out_type)


def _as_string(x, spec):
    if spec is None:
        return x.copy()
    if x.dtype == np.bool_:
        return _each(lambda v: b"true" if v else b"false", x)
    return _each(lambda v: (spec % v).encode("ascii"), x)


register("AsString", kernel=host_kernel(_as_string), infer=lambda x, spec: [(x.shape, dtypes.string)])


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Each number (or bool) as a string: floats as "%f" (or "%e" with scientific, "%g" with shortest), `precision`
    digits, padded to `width` with `fill` (" " or "0")."""
    x = convert_to_tensor(input)
    if x.dtype == dtypes.string:  # TF passes strings through
        return apply_op("AsString", [x], name=name or "AsString", spec=None)
    floating = x.dtype.kind in "fc"
    if fill and (len(fill) > 1 or fill not in " +-0#"):
        raise InvalidArgumentError(f"as_string: fill {fill!r} is not supported: give one of ' ', '+', '-', '0', '#'")
    if scientific and shortest:
        raise InvalidArgumentError("as_string: cannot select both scientific and shortest notation")
    if not floating and (precision > -1 or scientific or shortest):
        raise InvalidArgumentError(f"as_string: precision, scientific and shortest apply to floats only, not "
                                   f"{x.dtype.name}")
    spec = "%" + fill + (str(width) if width > -1 else "") + (f".{precision}" if precision > -1 else "")
    spec += ("e" if scientific else "g" if shortest else "f") if floating else "d"
    return apply_op("AsString", [x], name=name or "AsString", spec=spec)


def _reduce_join(x, axis, keepdims, separator):
    axes = tuple(range(x.ndim)) if axis is None else tuple(axis)
    moved = np.moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim)))
    flat = moved.reshape(moved.shape[:x.ndim - len(axes)] + (-1,))
    out = _each(lambda *parts: separator.join(parts), *np.moveaxis(flat, -1, 0)) if flat.shape[-1] else np.full(
        flat.shape[:-1], b"", dtype=object)
    return out.reshape([1 if d in axes else n for d, n in enumerate(x.shape)]) if keepdims else out


def _reduce_join_infer(x, axis, keepdims, separator):
    shape = static_shape(x)
    if shape is None:
        return [(None, dtypes.string)]
    axes = range(len(shape)) if axis is None else axis
    return [(tuple(1 if d in axes else n for d, n in enumerate(shape) if keepdims or d not in axes), dtypes.string)]


register("ReduceJoin", kernel=host_kernel(_reduce_join), infer=_reduce_join_infer)


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None, reduction_indices=None, keepdims=None):
    """The strings joined with `separator` over `axis` (all axes when None), in row-major order."""
    x = _string(inputs, "reduce_join")
    keep = argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    axes, keep = reduction_args(x, axis, keep, reduction_indices, None)
    return apply_op("ReduceJoin", [x], name=name or "ReduceJoin", axis=axes, keepdims=keep,
                    separator=_bytes(separator))


def _split(x, delimiter, skip_empty, maxsplit, whole):
    if x.ndim != 1:
        raise InvalidArgumentError(f"input must be a vector, got shape: {list(x.shape)}")
    rows = []
    for s in x:
        if whole:  # StringSplitV2: sep is one string, None splits on runs of whitespace
            parts = s.split(delimiter or None, maxsplit)
        elif delimiter:
            parts = re.split(b"[" + re.escape(delimiter) + b"]", s)
        else:
            parts = [s[i:i + 1] for i in range(len(s))]
        rows.append([p for p in parts if p or not skip_empty])
    indices = np.array([[r, c] for r, row in enumerate(rows) for c in range(len(row))], np.int64).reshape(-1, 2)
    values = np.array([p for row in rows for p in row] + [None], dtype=object)[:-1]
    return indices, values, np.array([len(rows), max((len(r) for r in rows), default=0)], np.int64)


register("StringSplit", kernel=host_kernel(_split),
         infer=lambda x, **attrs: [((None, 2), dtypes.int64), ((None,), dtypes.string), ((2,), dtypes.int64)])


def _vector(x, what):
    if x.ndim is not None and x.ndim != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {x.ndim}: {what} takes a vector of strings, got "
                         f"{x.name!r} of shape {x.shape}; reshape it with tf.reshape(x, [-1])")


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor", name=None):
    """Each string of the vector `source` split at any character of `sep` (" " by default; "" splits into bytes),
    as a SparseTensor [number of strings, most parts]."""
    sep = argument_lookup("sep", sep, "delimiter", delimiter)
    if result_type != "SparseTensor":
        raise NotImplementedError("string_split's result_type='RaggedTensor' is not available in ringflow (no ragged "
                                  "tensors): use the SparseTensor it returns by default")
    x = _string(source, "string_split")
    _vector(x, "string_split")
    parts = apply_op("StringSplit", [x], name=name or "StringSplit", delimiter=_bytes(" " if sep is None else sep),
                     skip_empty=bool(skip_empty), maxsplit=-1, whole=False)
    return SparseTensor(*parts)


def split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor", source=None, name=None):  # noqa: A002
    """Each string of the vector `input` split at the string `sep` (None: at runs of whitespace), at most `maxsplit`
    times, as a SparseTensor [number of strings, most parts]."""
    x = argument_lookup("input", input, "source", source)
    if result_type != "SparseTensor":
        raise NotImplementedError("strings.split's result_type='RaggedTensor' is not available in ringflow (no "
                                  "ragged tensors): use the SparseTensor it returns by default")
    x = _string(x, "strings.split")
    _vector(x, "strings.split")
    if sep == "":
        raise ValueError("strings.split: sep must not be empty; use tf.strings.bytes_split for characters")
    parts = apply_op("StringSplit", [x], name=name or "StringSplitV2", delimiter=None if sep is None else _bytes(sep),
                     skip_empty=False, maxsplit=int(maxsplit), whole=True)
    return SparseTensor(*parts)


def _buckets(x, num_buckets, method, key=None):
    if method == "strong" and len(key) != 2:
        raise InvalidArgumentError(f"Key must have 2 elements, got {len(key)}: give the SipHash key as two ints")
    hash_one = {"fast": fingerprint64, "legacy": hash64, "strong": lambda s: siphash(key, s)}[method]
    return _each(lambda s: hash_one(s) % num_buckets, x).astype(np.int64)


register("StringToHashBucket", kernel=host_kernel(_buckets), infer=lambda x, **attrs: [(x.shape, dtypes.int64)])


def _to_buckets(x, num_buckets, method, name, key=None):
    if num_buckets is None or int(num_buckets) < 1:
        raise ValueError(f"num_buckets must be a positive int, got {num_buckets!r}")
    return apply_op("StringToHashBucket", [_string(x, "to_hash_bucket")], name=name, num_buckets=int(num_buckets),
                    method=method, key=None if key is None else tuple(int(k) for k in key))


def string_to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 - TF1's argument name
    """Each string's bucket in [0, num_buckets): FarmHash's Fingerprint64 modulo num_buckets, as TF computes it."""
    return _to_buckets(input, num_buckets, "fast", name or "StringToHashBucketFast")


def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002 - TF1's argument name
    """Each string's bucket in [0, num_buckets) by SipHash-2-4 under `key` (two ints): hard to collide on purpose."""
    return _to_buckets(input, num_buckets, "strong", name or "StringToHashBucketStrong", key)


def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # noqa: A002
    """Each string's bucket in [0, num_buckets) by TF's older Hash64 (to_hash_bucket_fast is TF's advice)."""
    return _to_buckets(argument_lookup("input", input, "string_tensor", string_tensor), num_buckets, "legacy",
                       name or "StringToHashBucket")


def _segment_join(x, ids, num_segments, separator):
    num = int(num_segments)
    bad = np.nonzero((ids.reshape(-1) < 0) | (ids.reshape(-1) >= num))[0]
    if bad.size:  # TF's kernel refuses negative ids too
        raise InvalidArgumentError(f"segment_ids[{int(bad[0])}] = {int(ids.reshape(-1)[bad[0]])} is out of range "
                                   f"[0, {num}): give ids in [0, num_segments)")
    rest = x.shape[ids.ndim:]
    parts = {}
    for position in np.ndindex(ids.shape):
        parts.setdefault(int(ids[position]), []).append(x[position + (Ellipsis,)])
    out = np.empty((num,) + rest, dtype=object)
    for segment in range(num):
        for inner in np.ndindex(rest):
            out[(segment,) + inner] = separator.join(p[inner] for p in parts.get(segment, []))
    return out


def _segment_join_infer(x, ids, num_segments, separator):
    xs, ids_shape = static_shape(x), static_shape(ids)
    known = constant_value(num_segments)
    rows = None if known is None else int(known)
    return [(None if xs is None or ids_shape is None else (rows, *xs[len(ids_shape):]), dtypes.string)]


register("UnsortedSegmentJoin", kernel=host_kernel(_segment_join),
         infer=lambda x, ids, n, separator: _segment_join_infer(x, ids, n, separator))


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """The strings of `inputs` joined with `separator` by segment id in [0, num_segments) (in order of appearance);
    "" for a segment with none; segment_ids' shape is a prefix of inputs'."""
    x = _string(inputs, "unsorted_segment_join")
    ids = convert_to_tensor(segment_ids)
    if ids.dtype.kind != "i":
        raise TypeError(f"unsorted_segment_join: segment_ids must be int32 or int64, got {ids.dtype.name}")
    return apply_op("UnsortedSegmentJoin", [x, ids, convert_to_tensor(num_segments)],
                    name=name or "UnsortedSegmentJoin", separator=_bytes(separator))


def _format(*values, template, placeholder, summarize):
    pieces = template.split(placeholder)
    text = pieces[0] + "".join(summarize_v2(v, summarize) + piece for v, piece in zip(values, pieces[1:]))
    return np.array(text.encode("utf-8"), dtype=object)


register("StringFormat", kernel=host_kernel(_format), infer=lambda *inputs, **attrs: [((), dtypes.string)])


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """`template` with each `placeholder` replaced by the next input, shown as tf.print shows it (the first and
    last `summarize` entries of each dimension)."""
    tensors = [convert_to_tensor(x) for x in (inputs if isinstance(inputs, (list, tuple)) else [inputs])]
    if template.count(placeholder) != len(tensors):
        raise ValueError(f"num placeholders in template and num inputs must match: {template.count(placeholder)} "
                         f"{placeholder!r} in {template!r}, {len(tensors)} inputs")
    return apply_op("StringFormat", tensors, name=name or "StringFormat", template=template,
                    placeholder=placeholder, summarize=int(summarize))
