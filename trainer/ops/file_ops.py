"""Whole files as tensors: tf.read_file, tf.write_file, tf.matching_files and tf.train.match_filenames_once."""
import glob
import itertools

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.graph_keys import GraphKeys
from ..framework.graph_wrappers import name_scope
from ..framework.registry import on_host, register
from ..platform.errors import InvalidArgumentError, NotFoundError
from .core_ops import convert_to_tensor
from .variables import Variable

_STRING = [((), dtypes.string)]


def read_bytes(path):
    """The bytes of file `path`; NotFoundError naming it if it cannot be read, as TF1 says."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise NotFoundError(f"{path}; {e.strerror}") from None


def _file_name(value, op):
    value = np.asarray(value, dtype=object)  # a gathered scalar string is a bytes object; NULs stay
    if value.shape != ():
        raise InvalidArgumentError(f"{op.type} op {op.name!r} takes a scalar file name, got shape {value.shape}")
    name = value[()]
    return name.decode() if isinstance(name, bytes) else str(name)


def _read_file_kernel(op, session):
    return lambda filename: np.array(read_bytes(_file_name(filename, op)), dtype=object)


def _write_file_kernel(op, session):
    def run(filename, contents):
        with open(_file_name(filename, op), "wb") as f:
            f.write(np.asarray(contents, dtype=object)[()])
    return run


def _matching_files(pattern):
    patterns = [p.decode() if isinstance(p, bytes) else str(p) for p in np.asarray(pattern, dtype=object).ravel()]
    found = sorted(set(itertools.chain.from_iterable(glob.glob(p) for p in patterns)))
    out = np.empty(len(found), dtype=object)
    out[:] = [f.encode() for f in found]
    return out


register("ReadFile", kernel=on_host(_read_file_kernel), infer=lambda filename: _STRING)
register("WriteFile", kernel=on_host(_write_file_kernel), infer=lambda filename, contents: [])
register("MatchingFiles", kernel=on_host(lambda op, session: _matching_files),
         infer=lambda pattern: [((None,), dtypes.string)])


def read_file(filename, name=None):
    """The contents of the file `filename` (a scalar string) as one string."""
    return get_default_graph().create_op("ReadFile", [convert_to_tensor(filename, dtype=dtypes.string)], _STRING,
                                         name=name or "ReadFile").outputs[0]


def write_file(filename, contents, name=None):
    """An op writing the string `contents` to the file `filename`."""
    inputs = [convert_to_tensor(filename, dtype=dtypes.string), convert_to_tensor(contents, dtype=dtypes.string)]
    return get_default_graph().create_op("WriteFile", inputs, [], name=name or "WriteFile")


def matching_files(pattern, name=None):
    """The sorted names of the files matching glob `pattern` (a string or 1-D strings), when the op runs."""
    return get_default_graph().create_op("MatchingFiles", [convert_to_tensor(pattern, dtype=dtypes.string)],
                                         [((None,), dtypes.string)], name=name or "MatchingFiles").outputs[0]


def match_filenames_once(pattern, name=None):
    """A local variable holding the sorted names of the files matching `pattern`, found once, when the local
    variables are initialized."""
    with name_scope(name, "matching_filenames", [pattern]) as scope:
        return Variable(matching_files(pattern), trainable=False, name=scope.rstrip("/"), validate_shape=False,
                        collections=[GraphKeys.LOCAL_VARIABLES])
