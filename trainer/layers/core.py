"""tf.layers.Dense, Dropout and Flatten, and their functional forms."""
import numpy as np

from ..framework.tensor import Tensor
from ..ops.initializers import zeros_initializer
from ..ops.array_ops import cast, concat, reshape, shape, transpose
from ..ops.core_ops import identity
from ..ops import dropout_ops
from ..ops.math_ops import matmul, where
from ..ops.nn_ops import bias_add
from .base import Layer, static_dims


def matmul_last_axis(inputs, dims, kernel):
    """inputs @ kernel over the last axis of inputs of static dims (a, b, ..., n), any rank >= 2, as TF's tensordot:
    the leading dims come back statically where at most one is unknown, from the run-time shape otherwise."""
    if len(dims) == 2:
        return matmul(inputs, kernel)
    flat = matmul(reshape(inputs, (-1, dims[-1])), kernel)
    units = static_dims(kernel)[-1]
    lead = dims[:-1]
    if sum(d is None for d in lead) <= 1:
        return reshape(flat, (*(-1 if d is None else d for d in lead), units))
    return reshape(flat, concat([shape(inputs)[:-1], [units]], 0))


class Dense(Layer):
    """activation(inputs @ kernel + bias), applied on the last axis of inputs of any rank >= 2."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
                 name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.units, self.activation, self.use_bias = int(units), activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint

    def build(self, input_shape):
        if input_shape is None or len(input_shape) < 2 or input_shape[-1] is None:
            raise ValueError(f"The inputs of Dense layer {self.name!r} need rank >= 2 and a known last "
                             f"dimension, got shape {input_shape}")
        self.kernel = self.add_weight("kernel", (input_shape[-1], self.units), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", (self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def call(self, inputs):
        if inputs.dtype != self.kernel.dtype:
            inputs = cast(inputs, self.kernel.dtype)
        outputs = matmul_last_axis(inputs, static_dims(inputs), self.kernel)
        if self.use_bias:
            outputs = bias_add(outputs, self.bias)
        return outputs if self.activation is None else self.activation(outputs)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
          reuse=None):
    """A densely connected layer: variables <scope>/kernel and <scope>/bias (scope `name` or dense, dense_1...)."""
    layer = Dense(units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                  bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                  bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
                  name=name, _scope=name, _reuse=reuse)
    return layer.apply(inputs)


def training_flag(training):
    """True/False for a Python or numpy bool; the Tensor itself for a bool Tensor (decided at run time)."""
    if isinstance(training, Tensor):
        if training.dtype != np.bool_:
            raise TypeError(f"training must be a Python bool or a bool Tensor, got {training!r}")
        return training
    return bool(training)


class Dropout(Layer):
    """Zero inputs with probability `rate` and scale the rest by 1 / (1 - rate) while training."""

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def _noise_shape(self, inputs):
        dims = static_dims(inputs)
        return [d if d is not None or dims is None else dims[i] for i, d in enumerate(self.noise_shape)]

    def call(self, inputs, training=False):
        training = training_flag(training)
        if training is False:
            return identity(inputs)
        options = {} if self.noise_shape is None else {"noise_shape": self._noise_shape(inputs)}
        dropped = dropout_ops.dropout(inputs, rate=self.rate, seed=self.seed, **options)
        return dropped if training is True else where(training, dropped, inputs)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """Dropout while `training` (a Python bool or a bool Tensor fed at run time); identity otherwise."""
    return Dropout(rate, noise_shape=noise_shape, seed=seed, name=name).apply(inputs, training=training)


class Flatten(Layer):
    """Reshape inputs to (batch, -1), keeping the batch dimension."""

    def __init__(self, data_format="channels_last", name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if data_format not in ("channels_last", "channels_first"):
            raise ValueError(f"data_format must be 'channels_last' or 'channels_first', got {data_format!r}")
        self.data_format = data_format

    def call(self, inputs):
        dims = static_dims(inputs)
        if dims is None:
            raise ValueError(f"Flatten layer {self.name!r} needs inputs of known rank, got {inputs!r}")
        if self.data_format == "channels_first" and len(dims) > 2:
            # Keras flattens channels-first data in channels-last order, so weights carry over between formats.
            perm = (0, *range(2, len(dims)), 1)
            inputs, dims = transpose(inputs, perm), tuple(dims[p] for p in perm)
        rest = dims[1:]
        if None not in rest:
            return reshape(inputs, (-1, int(np.prod(rest, dtype=np.int64))))
        if dims[0] is not None:
            return reshape(inputs, (dims[0], -1))
        raise NotImplementedError(f"Flatten layer {self.name!r}: an input of shape {dims} has an unknown batch "
                                  "and an unknown other dimension; reshapes here take static shapes")


def flatten(inputs, name=None, data_format="channels_last"):
    """Flatten all but the first (batch) dimension."""
    return Flatten(data_format=data_format, name=name).apply(inputs)
