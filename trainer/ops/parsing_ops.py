"""Decoding records into tensors: tf.decode_raw, tf.decode_csv, and tf.parse_example / parse_single_example of
tf.train.Example protos with FixedLenFeature, FixedLenSequenceFeature and VarLenFeature (TF1's parsing_ops)."""
import collections
import csv

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import on_host, register
from ..framework.tensor_shape import TensorShape
from ..platform.errors import InvalidArgumentError
from ..platform.example_protos import Example
from .core_ops import constant, convert_to_tensor
from .sparse_tensor import SparseTensor

FixedLenFeature = collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"],
                                         defaults=(None,))
FixedLenSequenceFeature = collections.namedtuple("FixedLenSequenceFeature",
                                                 ["shape", "dtype", "allow_missing", "default_value"],
                                                 defaults=(False, None))
VarLenFeature = collections.namedtuple("VarLenFeature", ["dtype"])
_KINDS = {dtypes.float32: "float_list", dtypes.int64: "int64_list", dtypes.string: "bytes_list"}


def _strings(array):
    """The strings of a tg.string value as bytes; object arrays keep trailing NULs that numpy's "S" would drop."""
    return [v if isinstance(v, bytes) else str(v).encode() for v in np.asarray(array, dtype=object).ravel()]


def _decode_raw(op, session):
    out_type, little = np.dtype(op.attrs["out_type"]), op.attrs["little_endian"]
    dtype = out_type.newbyteorder("<" if little else ">") if out_type.itemsize > 1 else out_type

    def run(values):
        items = _strings(values)
        sizes = {len(b) for b in items}
        if len(sizes) > 1:
            raise InvalidArgumentError(f"DecodeRaw requires input strings to all be the same size, got sizes "
                                       f"{sorted(sizes)} in {op.name!r}")
        size = sizes.pop() if sizes else 0
        if size % dtype.itemsize:
            raise InvalidArgumentError(f"Input to DecodeRaw has length {size} that is not a multiple of "
                                       f"{dtype.itemsize}, the size of {out_type.name}")
        flat = np.frombuffer(b"".join(items), dtype=dtype).astype(out_type)
        return flat.reshape(np.shape(values) + (size // dtype.itemsize,))
    return run


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # noqa: A002
    """The bytes of each string reinterpreted as numbers of `out_type`: shape input.shape + [length / size]."""
    input_bytes = input_bytes if input_bytes is not None else bytes
    x = convert_to_tensor(input_bytes, dtype=dtypes.string)
    out_type = dtypes.as_dtype(out_type)
    shape = None if x.shape.ndims is None else tuple(x.shape) + (None,)
    return get_default_graph().create_op("DecodeRaw", [x], [(shape, out_type)], name=name or "DecodeRaw",
                                         attrs={"out_type": out_type, "little_endian": bool(little_endian)}
                                         ).outputs[0]


def _decode_csv(op, session):
    types, delim, quote = op.attrs["types"], op.attrs["field_delim"], op.attrs["use_quote_delim"]
    na_value, select = op.attrs["na_value"], op.attrs["select_cols"]

    def run(records, *defaults):
        columns = [[] for _ in types]
        for index, record in enumerate(_strings(records)):
            text = record.decode()
            fields = next(csv.reader([text], delimiter=delim, quotechar='"' if quote else None,
                                     quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE), [""])
            if select is not None:
                fields = [fields[i] if i < len(fields) else None for i in select]
            if len(fields) != len(types):
                raise InvalidArgumentError(f"Expect {len(types)} fields but have {len(fields)} in record {index}")
            for i, (field, dtype) in enumerate(zip(fields, types)):
                if field in ("", na_value, None):
                    if np.size(defaults[i]) == 0:
                        raise InvalidArgumentError(f"Field {i} is required but missing in record {index}!")
                    columns[i].append(np.ravel(defaults[i])[0])
                    continue
                try:
                    columns[i].append(field.encode() if dtype == dtypes.string else np.dtype(dtype).type(field))
                except ValueError:
                    raise InvalidArgumentError(f"Field {i} in record {index} is not a valid {dtype.name}: "
                                               f"{field!r}") from None
        shape = np.shape(records)
        return tuple(np.array(c, dtype=np.dtype(t)).reshape(shape) for c, t in zip(columns, types))
    return run


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """One tensor per CSV column of `records` (each of records' shape), typed and defaulted by `record_defaults`
    (one per column: [value] for its default, [] or an empty typed tensor for a required one)."""
    records = convert_to_tensor(records, dtype=dtypes.string)
    # [] is TF1's empty float32 tensor: a required float column
    defaults = [convert_to_tensor(d) if not isinstance(d, (list, tuple)) or d else
                convert_to_tensor(np.zeros(0, np.float32)) for d in record_defaults]
    types = [d.dtype for d in defaults]
    op = get_default_graph().create_op(
        "DecodeCSV", [records] + defaults, [(records.shape, t) for t in types], name=name or "DecodeCSV",
        attrs={"types": tuple(types), "field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
               "na_value": na_value, "select_cols": None if select_cols is None else tuple(select_cols)})
    return list(op.outputs)


def _values(feature, dtype, key):
    kind = feature.WhichOneof("kind")
    if kind is None:
        return []
    if kind != _KINDS[dtype]:
        raise InvalidArgumentError(f"Feature {key!r}: data types don't match. Expected type: {dtype.name}, "
                                   f"got {kind}")
    return list(getattr(feature, kind).value)


def _parse_example(op, session):
    """ParseExampleV2 as TF's op: the keys and dense defaults are inputs; the outputs come in TF's order (every
    sparse feature's indices, then their values, then their dense shapes, then the dense features)."""
    sparse_types, dense_types, dense_shapes = op.attrs["sparse_types"], op.attrs["Tdense"], op.attrs["dense_shapes"]

    def run(serialized, names, sparse_keys, dense_keys, ragged_keys, *dense_defaults):
        if np.size(ragged_keys):
            raise InvalidArgumentError(f"{op.name!r}: ringflow parses no ragged features (RaggedFeature)")
        examples = [Example.FromString(b) for b in _strings(serialized)]
        sparse = [_var_len(examples, key.decode(), dtypes.as_dtype(dtype), np.ndim(serialized))
                  for key, dtype in zip(_strings(sparse_keys), sparse_types)]
        dense = [_dense(examples, key.decode(), dtypes.as_dtype(dtype), TensorShape(shape).as_list(), default)
                 for key, dtype, shape, default in zip(_strings(dense_keys), dense_types, dense_shapes, dense_defaults)]
        dense = [out.reshape(np.shape(serialized) + out.shape[1:]) for out in dense]
        outputs = [part[i] for i in range(3) for part in sparse] + dense
        return outputs[0] if len(outputs) == 1 else tuple(outputs)  # the executor's convention for one output
    return run


def _dense(examples, key, dtype, shape, default):
    """A FixedLenFeature ([example] + shape; a missing one takes `default`, or is an error where the default is
    empty) or, with an unknown first dimension, a FixedLenSequenceFeature padded with `default` to the longest."""
    rows, sequence = [], shape[:1] == [None]
    inner = tuple(shape[1:]) if sequence else tuple(shape)
    size = int(np.prod(inner)) if inner else 1
    for index, example in enumerate(examples):
        feature = example.features.feature.get(key)
        values = _values(feature, dtype, key) if feature is not None else []
        if sequence:
            rows.append(np.asarray(values, np.dtype(dtype)).reshape((-1,) + inner))
        elif not values:
            if np.size(default) == 0:
                raise InvalidArgumentError(f"Name: <unknown>, Feature: {key} (data type: {dtype.name}) is required "
                                           "but could not be found.")
            rows.append(np.broadcast_to(np.asarray(default, np.dtype(dtype)), inner))
        elif len(values) != size:
            raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: {index}. Number of {dtype.name} values "
                                       f"!= expected. values size: {len(values)} but output shape: {list(inner)}")
        else:
            rows.append(np.asarray(values, np.dtype(dtype)).reshape(inner))
    if sequence:
        longest = max((len(r) for r in rows), default=0)
        padded = np.full((len(rows), longest) + inner, np.asarray(default).reshape(()), dtype=np.dtype(dtype))
        for i, row in enumerate(rows):
            padded[i, :len(row)] = row
        return padded
    return np.stack(rows) if rows else np.zeros((0,) + inner, np.dtype(dtype))


def _var_len(examples, key, dtype, batch_rank):
    """A VarLenFeature's SparseTensor parts (indices, values, dense_shape): each example's values in a row of
    their own (a batch's [example, j]; one example's [j]), the dense width the longest row's, as TF1 parses it."""
    rows = []
    for example in examples:
        feature = example.features.feature.get(key)
        rows.append(_values(feature, dtype, key) if feature is not None else [])
    width = max((len(r) for r in rows), default=0)
    columns = [np.arange(len(r), dtype=np.int64) for r in rows]
    within = np.concatenate(columns) if columns else np.zeros(0, np.int64)
    if batch_rank:
        which = np.repeat(np.arange(len(rows), dtype=np.int64), [len(r) for r in rows])
        indices, dense_shape = np.stack([which, within], axis=1), np.array([len(rows), width], np.int64)
    else:
        indices, dense_shape = within[:, None], np.array([width], np.int64)
    flat = [v for r in rows for v in r]
    values = np.array(flat, dtype=object) if dtype == dtypes.string else np.array(flat, np.dtype(dtype))
    return indices.reshape(-1, batch_rank + 1), values.reshape(-1), dense_shape


def _infer_parse_example(serialized, names, sparse_keys, dense_keys, ragged_keys, *dense_defaults, num_sparse,
                         sparse_types, Tdense, dense_shapes, **ragged):  # noqa: N803 - TF's attr names
    lead = tuple(serialized.shape) if serialized.shape.ndims is not None else None
    rank = 1 + (len(lead) if lead is not None else 1)
    dense = [(None if lead is None else lead + tuple(TensorShape(shape).as_list()), dtype)
             for dtype, shape in zip(Tdense, dense_shapes)]
    return ([((None, rank), dtypes.int64)] * num_sparse + [((None,), dtype) for dtype in sparse_types]
            + [((rank,), dtypes.int64)] * num_sparse + dense)


register("DecodeRaw", kernel=on_host(_decode_raw), infer=lambda x, **attrs: [(None, attrs["out_type"])])
register("DecodeCSV", kernel=on_host(_decode_csv), infer=lambda *t, **attrs: [(t[0].shape, d) for d in attrs["types"]])
register("ParseExampleV2", kernel=on_host(_parse_example), infer=_infer_parse_example)


def _check_features(features):
    for key, spec in features.items():
        if not isinstance(spec, (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature)):
            raise ValueError(f"Unsupported feature spec for {key!r}: {spec!r} (use FixedLenFeature, "
                             "FixedLenSequenceFeature or VarLenFeature)")
        if isinstance(spec, FixedLenSequenceFeature) and not spec.allow_missing:
            raise ValueError(f"Unsupported: FixedLenSequenceFeature requires allow_missing to be True (feature "
                             f"{key!r}).")
        if dtypes.as_dtype(spec.dtype) not in _KINDS:
            raise ValueError(f"Feature {key!r} has dtype {dtypes.as_dtype(spec.dtype).name}: a tf.train.Example "
                             "holds only float32, int64 and string")


def _parse(serialized, features, name, batch):
    _check_features(features)
    serialized = convert_to_tensor(serialized, dtype=dtypes.string)
    sparse = sorted(k for k, spec in features.items() if isinstance(spec, VarLenFeature))
    dense = sorted(k for k in features if k not in sparse)
    name = name or ("ParseExample/ParseExampleV2" if batch else "ParseSingleExample")
    graph = get_default_graph()
    inputs = [serialized] + [constant(np.array(keys, dtype=object), dtypes.string, name=f"{name}/{what}")
                             for what, keys in (("names", []), ("sparse_keys", sparse), ("dense_keys", dense),
                                                ("ragged_keys", []))]
    shapes, types = [], []
    for key in dense:
        spec = features[key]
        dtype, shape = dtypes.as_dtype(spec.dtype), TensorShape(spec.shape).as_list()
        if isinstance(spec, FixedLenSequenceFeature):
            fill = spec.default_value if spec.default_value is not None else (b"" if dtype == dtypes.string else 0)
            default, shape = np.asarray(fill, dtype=object if dtype == dtypes.string else None), [None] + shape
        elif spec.default_value is None:
            default = np.zeros(0, object if dtype == dtypes.string else np.dtype(dtype))
        else:
            default = np.broadcast_to(np.asarray(spec.default_value), shape)
        inputs.append(constant(default, dtype, name=f"{name}/key_{key}"))
        shapes.append(TensorShape(shape))
        types.append(dtype)
    attrs = {"num_sparse": len(sparse), "sparse_types": tuple(dtypes.as_dtype(features[k].dtype) for k in sparse),
             "Tdense": tuple(types), "dense_shapes": tuple(shapes), "ragged_value_types": (),
             "ragged_split_types": ()}
    op = graph.create_op("ParseExampleV2", inputs, _infer_parse_example(*inputs, **attrs), name=name, attrs=attrs)
    n = len(sparse)
    parsed = {key: SparseTensor(op.outputs[i], op.outputs[n + i], op.outputs[2 * n + i])
              for i, key in enumerate(sparse)}
    parsed.update(zip(dense, op.outputs[3 * n:]))
    return parsed


def parse_example(serialized, features, name=None, example_names=None):
    """{key: a dense tensor [batch] + shape} from a 1-D batch of serialized tf.train.Example protos."""
    return _parse(serialized, features, name, True)


def parse_single_example(serialized, features, name=None, example_names=None):
    """{key: a dense tensor of the feature's shape} from one serialized tf.train.Example (a scalar string)."""
    return _parse(serialized, features, name, False)
