"""Keras' data_format: 'channels_last' (batch, ..., channels) or 'channels_first' (batch, channels, ...).

The layers compute channels-last. On channels-first data, a method marked with channels_last gets its inputs (or
its input shape, for build) with the channels moved last, and its outputs of rank 3 or more get theirs moved back
to axis 1, as ringflow's NCHW tf.nn ops transpose around their NHWC kernels. TF 1.15 runs channels_first where its
kernels take NCHW (on GPUs); TF 2's CPU kernels run it too, and so does ringflow everywhere.
"""
import functools

from .. import backend as K


def normalize_data_format(value):
    """'channels_last' or 'channels_first' (None: K.image_data_format())."""
    value = (value or K.image_data_format()).lower()
    if value not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of 'channels_first', 'channels_last'. Received: "
                         f"{value!r}")
    return value


def channel_axis(data_format):
    return 1 if data_format == "channels_first" else -1


def _last(rank):
    return [0] + list(range(2, rank)) + [1]


def _first(rank):
    return [0, rank - 1] + list(range(1, rank - 1))


def channels_last(method):
    """Run a layer's call (or build) written for channels_last on the layer's data_format."""
    building = method.__name__ == "build"

    @functools.wraps(method)
    def run(self, inputs, *args, **kwargs):
        if getattr(self, "data_format", "channels_last") != "channels_first":
            return method(self, inputs, *args, **kwargs)
        if building:
            shape = tuple(inputs)
            return method(self, tuple(shape[i] for i in _last(len(shape))), *args, **kwargs)
        outputs = method(self, K.permute_dimensions(inputs, _last(K.ndim(inputs))), *args, **kwargs)
        rank = K.ndim(outputs)
        return K.permute_dimensions(outputs, _first(rank)) if rank and rank > 2 else outputs
    return run
