"""Keras' core layers: Dense, Activation, Dropout, Masking, Flatten, Reshape, Permute, RepeatVector, Lambda,
ActivityRegularization."""
import numpy as np

from ...ops.dropout_ops import dropout
from ...ops.math_ops import matmul
from ...ops.nn_ops import bias_add
from .. import activations, constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from ..utils.generic_utils import serialized
from .weights import bias_weight, layer_weight, weights_config


class Dense(Layer):
    """activation(inputs @ kernel + bias); kernel (input_dim, units), glorot_uniform; bias zeros."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units, self.use_bias = int(units), use_bias
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        last = input_shape[-1]
        if last is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
        self.kernel = layer_weight(self, "kernel", (last, self.units))
        self.bias = bias_weight(self, self.units)
        self.built = True

    def call(self, inputs):
        outputs = matmul(inputs, self.kernel) if K.ndim(inputs) == 2 else K.dot(inputs, self.kernel)
        if self.use_bias:
            outputs = bias_add(outputs, self.bias)
        return self.activation(outputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        return dict(super().get_config(), units=self.units, activation=activations.serialize(self.activation),
                    use_bias=self.use_bias, **weights_config(self, "kernel", "bias"),
                    activity_regularizer=serialized(regularizers, self.activity_regularizer))


class Activation(Layer):
    """activation(inputs), the activation named or given."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)
        self.supports_masking = True

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return dict(super().get_config(), activation=activations.serialize(self.activation))


class Dropout(Layer):
    """Zeroes a `rate` fraction of the inputs (scaling the rest by 1/(1-rate)) in the training phase only."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.noise_shape, self.seed = min(1.0, max(0.0, rate)), noise_shape, seed
        self.supports_masking = True

    def call(self, inputs, training=None):
        if not 0.0 < self.rate < 1.0:
            return inputs
        noise_shape = None
        if self.noise_shape is not None:
            dynamic = K.shape(inputs)
            noise_shape = [dynamic[i] if d is None else d for i, d in enumerate(self.noise_shape)]
        return K.in_train_phase(lambda: dropout(inputs, rate=self.rate, noise_shape=noise_shape, seed=self.seed),
                                lambda: K.identity(inputs), training=training)

    def get_config(self):
        return dict(super().get_config(), rate=self.rate, noise_shape=self.noise_shape, seed=self.seed)


class Masking(Layer):
    """Masks the time steps whose features all equal `mask_value` (and zeroes them) for the layers after."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return K.any(K.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = K.any(K.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        return inputs * K.cast(keep, K.dtype(inputs))

    def get_config(self):
        return dict(super().get_config(), mask_value=self.mask_value)


class Flatten(Layer):
    """(batch, ...) -> (batch, product of the rest)."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or K.image_data_format()
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        shape = K.int_shape(inputs)
        if shape is not None and all(d is not None for d in shape[1:]):
            return K.reshape(inputs, (-1, int(np.prod(shape[1:]))))
        return K.reshape(inputs, (K.shape(inputs)[0], -1))

    def get_config(self):
        return dict(super().get_config(), data_format=self.data_format)


class Reshape(Layer):
    """(batch, ...) -> (batch,) + target_shape (one entry may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        return K.reshape(inputs, (-1,) + self.target_shape)

    def get_config(self):
        return dict(super().get_config(), target_shape=self.target_shape)


class Permute(Layer):
    """Permutes the non-batch axes by `dims` (1-based, as Keras)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation `dims` for Permute Layer: {dims}. The set of indices in `dims` "
                             "must be consecutive and start from 1.")

    def call(self, inputs):
        return K.permute_dimensions(inputs, (0,) + self.dims)

    def get_config(self):
        return dict(super().get_config(), dims=self.dims)


class RepeatVector(Layer):
    """(batch, features) -> (batch, n, features)."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return K.repeat(inputs, self.n)

    def get_config(self):
        return dict(super().get_config(), n=self.n)


class Lambda(Layer):
    """function(inputs, **arguments) as a layer (the function is Python code: it is saved by name only)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function, self.arguments = function, arguments or {}
        self._output_shape = output_shape

    def call(self, inputs, mask=None, training=None):
        return self.function(inputs, **self.arguments)

    def get_config(self):
        raise NotImplementedError(f"Lambda layer {self.name!r} wraps Python code, which ringflow does not "
                                  "serialize; rebuild the model in code and use save_weights/load_weights")


class ActivityRegularization(Layer):
    """Identity that adds l1 * sum|x| + l2 * sum x**2 of its outputs to the loss."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def get_config(self):
        config = dict(super().get_config(), l1=self.l1, l2=self.l2)
        config.pop("activity_regularizer", None)
        return config


