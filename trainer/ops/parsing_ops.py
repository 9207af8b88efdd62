"""Decoding records into tensors: tf.decode_raw, tf.decode_csv, and tf.parse_example / parse_single_example of
tf.train.Example protos with FixedLenFeature and FixedLenSequenceFeature (TF1's parsing_ops)."""
import collections
import csv

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import on_host, register
from ..framework.tensor_shape import TensorShape
from ..platform.errors import InvalidArgumentError
from ..platform.example_protos import Example
from .core_ops import convert_to_tensor

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
    specs = op.attrs["specs"]

    def run(serialized):
        items = _strings(serialized)
        examples = [Example.FromString(b) for b in items]
        outputs = []
        for key, spec in specs:
            dtype, shape = dtypes.as_dtype(spec.dtype), tuple(spec.shape)
            per_example, size = [], int(np.prod(shape)) if shape else 1
            for index, example in enumerate(examples):
                feature = example.features.feature.get(key)
                values = _values(feature, dtype, key) if feature is not None else None
                if isinstance(spec, FixedLenFeature):
                    if not values:
                        if spec.default_value is None:
                            raise InvalidArgumentError(f"Name: <unknown>, Feature: {key} (data type: {dtype.name})"
                                                       f" is required but could not be found.")
                        values = np.broadcast_to(np.asarray(spec.default_value, np.dtype(dtype)), shape)
                    elif len(values) != size:
                        raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: {index}. Number of "
                                                   f"{dtype.name} values != expected. values size: {len(values)} "
                                                   f"but output shape: {list(shape)}")
                    per_example.append(np.asarray(values, np.dtype(dtype)).reshape(shape))
                else:
                    if values is None and not spec.allow_missing:
                        raise InvalidArgumentError(f"Name: <unknown>, Feature list: {key} is required but could "
                                                   "not be found (use allow_missing=True)")
                    per_example.append(np.asarray(values or [], np.dtype(dtype)).reshape((-1,) + shape))
            if isinstance(spec, FixedLenSequenceFeature):
                longest = max((len(v) for v in per_example), default=0)
                fill = spec.default_value if spec.default_value is not None else (b"" if dtype == dtypes.string
                                                                                  else 0)
                padded = np.full((len(per_example), longest) + shape, fill, dtype=np.dtype(dtype))
                for i, v in enumerate(per_example):
                    padded[i, :len(v)] = v
                out = padded
            else:
                out = np.stack(per_example) if per_example else np.zeros((0,) + shape, np.dtype(dtype))
            outputs.append(out.reshape(np.shape(serialized) + out.shape[1:]))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)
    return run


register("DecodeRaw", kernel=on_host(_decode_raw), infer=lambda x, **attrs: [(None, attrs["out_type"])])
register("DecodeCSV", kernel=on_host(_decode_csv), infer=lambda *t, **attrs: [(t[0].shape, d) for d in attrs["types"]])
register("ParseExampleV2", kernel=on_host(_parse_example), infer=lambda s, **attrs: [])


def _check_features(features):
    for key, spec in features.items():
        if isinstance(spec, VarLenFeature):
            raise NotImplementedError(f"VarLenFeature {key!r} parses into a tf.SparseTensor, which ringflow lacks: "
                                      "use FixedLenFeature with a default_value, or "
                                      "FixedLenSequenceFeature(..., allow_missing=True) for a padded dense tensor")
        if not isinstance(spec, (FixedLenFeature, FixedLenSequenceFeature)):
            raise ValueError(f"Unsupported feature spec for {key!r}: {spec!r} (use FixedLenFeature or "
                             "FixedLenSequenceFeature)")
        if dtypes.as_dtype(spec.dtype) not in _KINDS:
            raise ValueError(f"Feature {key!r} has dtype {dtypes.as_dtype(spec.dtype).name}: a tf.train.Example "
                             "holds only float32, int64 and string")


def _parse(serialized, features, name, batch):
    _check_features(features)
    serialized = convert_to_tensor(serialized, dtype=dtypes.string)
    keys = sorted(features)
    specs = tuple((k, features[k]) for k in keys)
    lead = tuple(serialized.shape) if serialized.shape.ndims is not None else None
    outs = []
    for _, spec in specs:
        shape = tuple(TensorShape(spec.shape))
        seq = (None,) if isinstance(spec, FixedLenSequenceFeature) else ()
        outs.append((None if lead is None else lead + seq + shape, dtypes.as_dtype(spec.dtype)))
    op = get_default_graph().create_op("ParseExampleV2", [serialized], outs, name=name or
                                       ("ParseExample/ParseExampleV2" if batch else "ParseSingleExample"),
                                       attrs={"specs": specs})
    return dict(zip(keys, op.outputs))


def parse_example(serialized, features, name=None, example_names=None):
    """{key: a dense tensor [batch] + shape} from a 1-D batch of serialized tf.train.Example protos."""
    return _parse(serialized, features, name, True)


def parse_single_example(serialized, features, name=None, example_names=None):
    """{key: a dense tensor of the feature's shape} from one serialized tf.train.Example (a scalar string)."""
    return _parse(serialized, features, name, False)
