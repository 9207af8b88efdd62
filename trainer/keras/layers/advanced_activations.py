"""Keras' activation layers with parameters: LeakyReLU, ReLU, ELU, Softmax, ThresholdedReLU, PReLU."""
from .. import constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import Layer
from ..utils.generic_utils import serialized


class LeakyReLU(Layer):
    """x for x >= 0, alpha * x below (alpha 0.3, Keras' default)."""

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs):
        return K.relu(inputs, alpha=self.alpha)

    def get_config(self):
        return dict(super().get_config(), alpha=self.alpha)


class ReLU(Layer):
    """max_value-capped relu with negative_slope below threshold."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0 or negative_slope < 0.0:
            raise ValueError(f"ReLU: max_value and negative_slope cannot be negative, got {max_value!r} and "
                             f"{negative_slope!r}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        return K.relu(inputs, alpha=self.negative_slope, max_value=self.max_value, threshold=self.threshold)

    def get_config(self):
        return dict(super().get_config(), max_value=self.max_value, negative_slope=self.negative_slope,
                    threshold=self.threshold)


class ELU(Layer):
    """x for x > 0, alpha * (exp(x) - 1) below."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs):
        return K.elu(inputs, self.alpha)

    def get_config(self):
        return dict(super().get_config(), alpha=self.alpha)


class ThresholdedReLU(Layer):
    """x where x > theta, 0 elsewhere."""

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        self.theta = float(theta)

    def call(self, inputs):
        return inputs * K.cast(K.greater(inputs, self.theta), K.dtype(inputs))

    def get_config(self):
        return dict(super().get_config(), theta=self.theta)


class Softmax(Layer):
    """Softmax along `axis`."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return K.softmax(inputs, axis=self.axis)

    def get_config(self):
        return dict(super().get_config(), axis=self.axis)


class PReLU(Layer):
    """x for x >= 0, alpha * x below, alpha learned per unit (shared along shared_axes)."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        self.shared_axes = None if shared_axes is None else \
            [shared_axes] if isinstance(shared_axes, int) else list(shared_axes)

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or []:
            shape[axis - 1] = 1
        self.alpha = self.add_weight("alpha", shape, initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        self.built = True

    def call(self, inputs):
        return K.relu(inputs) - self.alpha * K.relu(-inputs)

    def get_config(self):
        return dict(super().get_config(), alpha_initializer=serialized(initializers, self.alpha_initializer),
                    alpha_regularizer=serialized(regularizers, self.alpha_regularizer),
                    alpha_constraint=serialized(constraints, self.alpha_constraint), shared_axes=self.shared_axes)
