"""The stages that gather elements into groups: Dataset.window (consecutive elements), group_by_window (by a key;
bucket_by_sequence_length is built on it, as in TF) and group_by_reducer.

A key is an int64 scalar key_func(element). group_by_window's reduce_func gets the key and a dataset of the
group's elements (a WindowStage: its elements are those the group collected), and the elements of the dataset it
returns are the output; groups still open when the input ends are reduced in the order of their keys, as TF's
ordered map of groups gives them. group_by_reducer folds each group into a state, finalized in the order the keys
first came.
"""
import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from .stage import Stage, check, scalar
from .structure import DatasetComponent, Spec


def check_key(function, what):
    spec = function.result
    if spec.structure is not None or spec.types[0] != dtypes.int64 or spec.shapes[0].ndims not in (None, 0):
        raise ValueError(f"`{what}` must return a single tf.int64 scalar tensor; it returns {spec}")


class GroupByWindowStage(Stage):
    """Windows of up to window_size elements of one key, each reduced by reduce_func to a dataset."""

    def __init__(self, stage, key_function, reduce_function, window, size, size_function=None):
        check_key(key_function, "key_func")
        self.inputs, self.window = (stage,), window
        self.key_function, self.reduce_function, self.size_function = key_function, reduce_function, size_function
        self.functions = tuple(f for f in (key_function, reduce_function, size_function) if f is not None)
        self.tensors = [] if size is None else [size]
        self.spec = reduce_function.result.spec

    def iterate(self, context):
        groups = {}
        for element in self.inputs[0].iterate(context):
            key = int(context.to_host(context.call(self.key_function, element)[0]))
            group = groups.setdefault(key, [])
            group.append(element)
            if len(group) >= self._size(context, key):
                yield from self._reduce(context, key, groups.pop(key))
        for key in sorted(groups):
            yield from self._reduce(context, key, groups[key])

    def _size(self, context, key):
        if self.size_function is None:
            size = context.scalar(self.tensors[0])
        else:
            size = int(context.to_host(context.call(self.size_function, [_key(context, key)])[0]))
        if size <= 0:
            raise InvalidArgumentError(f"Window size must be greater than zero, but got {size}.")
        return size

    def _reduce(self, context, key, group):
        function = self.reduce_function
        values = dict(zip(function.outputs, context.call(function, [_key(context, key)])))
        values[self.window] = group
        yield from function.result.stage.iterate(context.nested(values))


class GroupByReducerStage(Stage):
    """One element per key: the key's elements folded by reduce_func from init_func(key), then finalize_func."""

    def __init__(self, stage, key_function, init_function, reduce_function, finalize_function):
        check_key(key_function, "key_func")
        self.inputs = (stage,)
        self.functions = (key_function, init_function, reduce_function, finalize_function)
        self.spec = finalize_function.result

    def iterate(self, context):
        key_function, init_function, reduce_function, finalize_function = self.functions
        states = {}
        for element in self.inputs[0].iterate(context):
            key = int(context.to_host(context.call(key_function, element)[0]))
            if key not in states:
                states[key] = context.call(init_function, [_key(context, key)])
            states[key] = context.call(reduce_function, list(states[key]) + list(element))
        for state in states.values():
            yield self.spec.gather(context.call(finalize_function, state))


def _key(context, key):
    return context.to_device(np.array(key, dtype=np.int64))


class WindowingStage(Stage):
    """Windows of `size` elements, `stride` apart, starting every `shift` elements; each window is an element
    whose components are datasets (one per component of the input's elements), as TF's Dataset.window makes them.
    The last windows may be shorter unless drop_remainder."""

    def __init__(self, stage, size, shift, stride, drop_remainder, wrap):
        self.inputs = (stage,)
        self.tensors = [scalar(size, dtypes.int64, "size"), scalar(size if shift is None else shift, dtypes.int64,
                                                                  "shift"),
                        scalar(stride, dtypes.int64, "stride"), scalar(drop_remainder, dtypes.bool, "drop_remainder")]
        for tensor, name in zip(self.tensors[:3], ("size", "shift", "stride")):
            check(tensor, lambda n: n > 0, f"Window {name} must be greater than zero, but got {{}}.")
        spec = stage.spec
        self.spec = Spec(spec.structure, [()] * len(spec.types),
                         [DatasetComponent(Spec(None, [s], [t]), wrap) for s, t in zip(spec.shapes, spec.types)])

    def iterate(self, context):
        size, shift, stride, drop = (context.scalar(t) for t in self.tensors)
        if min(size, shift, stride) <= 0:
            raise InvalidArgumentError(f"Window size, shift and stride must be greater than zero, but got {size}, "
                                       f"{shift} and {stride}.")
        span = (size - 1) * stride + 1
        elements, buffer, ended = iter(self.inputs[0].iterate(context)), [], False
        while True:
            while not ended and len(buffer) < span:
                element = next(elements, None)
                ended = element is None
                if not ended:
                    buffer.append(element)
            window = buffer[:span:stride]
            if not window or drop and len(window) < size:
                return
            yield [[[e[i]] for e in window] for i in range(len(window[0]))]
            skip = shift - len(buffer)
            del buffer[:shift]
            for _ in range(max(0, skip)):
                if next(elements, None) is None:
                    ended = True
                    break
