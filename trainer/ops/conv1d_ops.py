"""tg.nn.conv1d, built as TF1 builds it: the width becomes a 2-D image of height 1, then conv2d."""
import numpy as np

from ..framework.graph_wrappers import name_scope
from .conv_ops import conv2d
from .core_ops import convert_to_tensor
from .shape_ops import expand_dims, squeeze

# data_format -> (conv2d's format, the axis where the height-1 dim goes, the channel axis of the 3-D input)
_FORMATS = {None: ("NHWC", 1, 2), "NWC": ("NHWC", 1, 2), "NHWC": ("NHWC", 1, 2),
            "NCW": ("NCHW", 2, 1), "NCHW": ("NCHW", 2, 1)}


def _width_value(value, what, channel_index):
    """One int from an int or a list of 1 or 3 (batch, channel and spatial entries, the first two 1)."""
    values = [int(v) for v in np.ravel(value)]
    if len(values) == 1:
        return values[0]
    if len(values) == 3:
        spatial = 3 - channel_index  # NWC: [1, w, 1]; NCW: [1, 1, w]
        if values[0] != 1 or values[channel_index] != 1:
            raise ValueError(f"conv1d: {what} {values} must be 1 in the batch and channel entries")
        return values[spatial]
    raise ValueError(f"conv1d: {what} must be an int or a list of 1 or 3 ints, got {value!r}")


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None, data_format=None,
           name=None, input=None, dilations=None):  # noqa: A002 - TF1's names
    """1-D convolution of [batch, width, in] (NWC; NCW: [batch, in, width]) with [width, in, out] filters.

    stride and dilations are an int or a list of 1 or 3 ints; padding SAME or VALID; use_cudnn_on_gpu is ignored.
    """
    if (value is None) == (input is None):
        raise ValueError("conv1d takes its input as `value` or `input` (exactly one of them)")
    if filters is None or stride is None or padding is None:
        raise ValueError(f"conv1d needs filters, stride and padding, got filters={filters!r} stride={stride!r} "
                         f"padding={padding!r}")
    if data_format not in _FORMATS:
        raise ValueError(f"data_format must be 'NWC' or 'NCW', got {data_format!r}")
    conv2d_format, height_axis, channel_index = _FORMATS[data_format]
    with name_scope(name or "conv1d"):
        x = convert_to_tensor(value if input is None else input)
        w = convert_to_tensor(filters)
        if x.ndim not in (None, 3) or w.ndim not in (None, 3):
            raise ValueError(f"conv1d needs a 3-D input and 3-D [width, in, out] filters, got {x.name!r} of shape "
                             f"{x.shape} and {w.name!r} of shape {w.shape}")
        strides = (1, _width_value(stride, "stride", channel_index))
        rates = (1, _width_value(1 if dilations is None else dilations, "dilations", channel_index))
        out = conv2d(expand_dims(x, height_axis), filter=expand_dims(w, 0), strides=strides, padding=padding,
                     data_format=conv2d_format, dilations=rates)
        return squeeze(out, [height_axis])
