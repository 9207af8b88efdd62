"""Keras' locally connected layers: a convolution whose weights differ at every output position (unshared), in
Keras' three weight layouts: implementation 1 (one kernel per output position, a batched matmul over the patches),
2 (a dense input-to-output kernel masked to the receptive fields) and 3 (the connected entries of that kernel
only). Channels-last only."""
import itertools

import numpy as np

from ...ops.array_ops import reshape
from ...ops.gather_nd_ops import scatter_nd
from ...ops.math_ops import matmul
from .. import activations
from ..backend.conv import local_conv
from ..engine.base_layer import InputSpec, Layer
from .convolutional import normalize_tuple
from .data_format import normalize_data_format
from .weights import keep_weight_settings, layer_weight, weights_config


def output_length(length, kernel, padding, stride):
    """Keras' conv_output_length: the positions a window of `kernel` visits."""
    if length is None:
        return None
    span = length if padding == "same" else length - kernel + 1
    return (span + stride - 1) // stride


def connected_inputs(input_shape, kernel, position, strides, padding):
    """Per axis, the input indices the output `position` sees ("same" centres the window at kernel // 2)."""
    ranges = []
    for size, k, at, s in zip(input_shape, kernel, position, strides):
        shift = k // 2 if padding == "same" else 0
        centre = at * s
        ranges.append(range(max(0, centre - shift), min(size, centre + k - shift)))
    return ranges


def connections(input_shape, output_shape, kernel, strides, padding):
    """Every (input position, output position) pair the layer connects, output positions in row-major order."""
    for out in itertools.product(*(range(n) for n in output_shape)):
        for inp in itertools.product(*connected_inputs(input_shape, kernel, out, strides, padding)):
            yield inp, out


class LocallyConnected(Layer):
    """The rank-D unshared convolution; Keras' weights: kernel (layout by `implementation`), bias
    output_shape + (filters,)."""

    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, implementation=1, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.filters = int(filters)
        self.kernel_size = normalize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = normalize_tuple(strides, self.rank, "strides")
        self.padding = padding.lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be 'valid' or 'same'. Received: {padding!r}")
        if self.padding != "valid" and implementation == 1:
            raise ValueError(f"Invalid border mode for LocallyConnected{self.rank}D (only 'valid' is supported if "
                             f"implementation is 1): {padding!r}; use implementation=2 or 3 for 'same'")
        if implementation not in (1, 2, 3):
            raise ValueError(f"Unrecognized implementation mode: {implementation!r}; Keras has 1, 2 and 3")
        self.data_format = normalize_data_format(data_format)
        if self.data_format != "channels_last":
            raise ValueError(f"LocallyConnected{self.rank}D runs channels_last only in ringflow (Keras lays its "
                             "channels_first weights out differently); transpose the data to channels_last")
        self.activation, self.use_bias, self.implementation = activations.get(activation), use_bias, implementation
        keep_weight_settings(self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint)
        keep_weight_settings(self, "bias", bias_initializer, bias_regularizer, bias_constraint)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def build(self, input_shape):
        self.spatial_in, channels = tuple(input_shape[1:-1]), input_shape[-1]
        if channels is None or None in self.spatial_in:
            raise ValueError(f"LocallyConnected{self.rank}D needs its inputs' spatial and channel dimensions "
                             f"defined; found shape {input_shape!r}")
        self.spatial_out = tuple(output_length(n, k, self.padding, s)
                                 for n, k, s in zip(self.spatial_in, self.kernel_size, self.strides))
        pairs = list(connections(self.spatial_in, self.spatial_out, self.kernel_size, self.strides, self.padding))
        if self.implementation == 1:
            shape = (int(np.prod(self.spatial_out)), int(np.prod(self.kernel_size)) * channels, self.filters)
        elif self.implementation == 2:
            shape = self.spatial_in + (channels,) + self.spatial_out + (self.filters,)
            mask = np.zeros(self.spatial_in + (1,) + self.spatial_out + (1,), np.float32)
            for inp, out in pairs:
                mask[inp + (0,) + out + (0,)] = 1.
            self.kernel_mask = mask
        else:
            self.kernel_idxs = sorted(
                (np.ravel_multi_index(out + (f_out,), self.spatial_out + (self.filters,)),
                 np.ravel_multi_index(inp + (f_in,), self.spatial_in + (channels,)))
                for inp, out in pairs for f_in in range(channels) for f_out in range(self.filters))
            shape = (len(self.kernel_idxs),)
        self.kernel = layer_weight(self, "kernel", shape)
        self.bias = layer_weight(self, "bias", self.spatial_out + (self.filters,)) if self.use_bias else None
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={-1: channels})
        self.built = True

    def call(self, inputs):
        if self.implementation == 1:
            output = local_conv(inputs, self.kernel, self.kernel_size, self.strides, self.spatial_out,
                                "channels_last")
        else:
            flat = reshape(inputs, (-1, int(np.prod(self.spatial_in)) * inputs.shape[-1]))
            if self.implementation == 2:
                kernel = reshape(self.kernel * self.kernel_mask, (flat.shape[-1], -1))
                output = matmul(flat, kernel)
            else:
                dense = scatter_nd(np.array(self.kernel_idxs, np.int64), self.kernel,
                                   (int(np.prod(self.spatial_out)) * self.filters, flat.shape[-1]))
                output = matmul(flat, dense, transpose_b=True)
        output = reshape(output, (-1,) + self.spatial_out + (self.filters,))
        if self.use_bias:
            output += self.bias
        return self.activation(output)

    def compute_output_shape(self, input_shape):
        spatial = tuple(output_length(n, k, self.padding, s)
                        for n, k, s in zip(input_shape[1:-1], self.kernel_size, self.strides))
        return (input_shape[0],) + spatial + (self.filters,)

    def get_config(self):
        return dict(super().get_config(), filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
                    padding=self.padding, data_format=self.data_format,
                    activation=activations.serialize(self.activation), use_bias=self.use_bias,
                    implementation=self.implementation, **weights_config(self, "kernel", "bias"))


class LocallyConnected1D(LocallyConnected):
    """Unshared 1-D convolution over (batch, steps, channels)."""

    rank = 1


class LocallyConnected2D(LocallyConnected):
    """Unshared 2-D convolution over (batch, rows, cols, channels)."""

    rank = 2
