"""Keras' core layers: Dense, Activation, Dropout, Masking, Flatten, Reshape, Permute, RepeatVector, Lambda,
ActivityRegularization."""
import sys
import types
import warnings

import numpy as np

from ...ops.dropout_ops import dropout
from ...ops.math_ops import matmul
from ...ops.nn_ops import bias_add
from .. import activations, constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer, call_arguments
from ..utils.generic_utils import deserialize_keras_object, func_dump, func_load, serialized
from .data_format import channels_last, normalize_data_format
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
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    @channels_last  # channels_first data flattens in channels-last order, as Keras flattens it
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
    """function(inputs, **arguments) as a layer. Its config holds Python functions as Keras 2.2.4-tf writes them:
    a function's bytecode marshalled (func_dump), read back only by the same Python version, with the globals of
    its module (when loaded) and of custom_objects; `output_shape` and `mask` likewise, or as given."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function, self.arguments = function, arguments or {}
        self._output_shape, self.mask = output_shape, mask
        self.supports_masking = mask is not None

    def call(self, inputs, mask=None, training=None):
        arguments = dict(self.arguments)
        if hasattr(self.function, "__code__") and "mask" in call_arguments(self.function):
            arguments["mask"] = mask
        return self.function(inputs, **arguments)

    def compute_mask(self, inputs, mask=None):
        return self.mask(inputs, mask) if callable(self.mask) else self.mask

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return super().compute_output_shape(input_shape)
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        batch = input_shape[0][0] if isinstance(input_shape, list) else input_shape[0]
        return (batch,) + tuple(self._output_shape)

    def get_config(self):
        config = dict(super().get_config())
        config["function"], config["function_type"], config["module"] = function_config(self.function)
        config["output_shape"], config["output_shape_type"], config["output_shape_module"] = \
            function_config(self._output_shape, raw=True)
        if self.mask is not None:
            config["mask"], config["mask_type"], config["mask_module"] = function_config(self.mask)
        config["arguments"] = dict(self.arguments)  # arrays go into JSON as lists, as in tf.keras
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["function"] = function_from_config(config, "function", "module", custom_objects)
        config["output_shape"] = function_from_config(config, "output_shape", "output_shape_module", custom_objects)
        config["mask"] = function_from_config(config, "mask", "mask_module", custom_objects) \
            if "mask" in config else None
        # Keras 2.2.4 wrote arrays as {'type': 'ndarray', 'value': [...]}
        config["arguments"] = {k: np.array(v["value"]) if isinstance(v, dict) and v.get("type") == "ndarray" else v
                               for k, v in config.get("arguments", {}).items()}
        return cls(**config)


def function_config(value, raw=False):
    """(value, type, module) of a function in a Lambda's config: 'lambda' for Python functions (their bytecode),
    'function' for other callables (by name), 'raw' for the rest where allowed."""
    if isinstance(value, types.FunctionType):
        return func_dump(value), "lambda", value.__module__
    if callable(value):
        return value.__name__, "function", getattr(value, "__module__", None)
    if raw:
        return value, "raw", None
    raise ValueError(f"Invalid input for serialization, type: {type(value)}: a Lambda layer's function and mask "
                     "must be callables")


def function_from_config(config, attr, module_attr, custom_objects):
    """The function a Lambda's config holds under `attr` (popping its type and module keys)."""
    module = config.pop(module_attr, None)
    kind = config.pop(f"{attr}_type", "raw")
    names = dict(globals())
    if module in sys.modules:
        names.update(vars(sys.modules[module]))
    elif module is not None:
        warnings.warn(f"{module} is not loaded, but a Lambda layer uses it. It may cause errors.", UserWarning)
    names.update(custom_objects or {})
    if kind == "function":
        return deserialize_keras_object(config[attr], {}, custom_objects, "function in Lambda layer")
    if kind == "lambda":
        return func_load(config[attr], globs=names)
    if kind == "raw":
        return config[attr]
    raise TypeError(f"Unknown function type in the config of a Lambda layer: {kind!r} (expected 'lambda', "
                    "'function' or 'raw')")


class ActivityRegularization(Layer):
    """Identity that adds l1 * sum|x| + l2 * sum x**2 of its outputs to the loss."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def get_config(self):
        config = dict(super().get_config(), l1=self.l1, l2=self.l2)
        config.pop("activity_regularizer", None)
        return config


