"""Keras' merge layers over a list of tensors: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate,
Dot, and their functions (add, concatenate, ...)."""
from functools import reduce

from .. import backend as K
from ..engine.base_layer import Layer


class Merge(Layer):
    """Base: `merge(list of tensors)` combines same-shaped tensors."""

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(f"A merge layer ({type(self).__name__}) should be called on a list of at least 2 "
                             f"inputs. Got: {inputs!r}")
        return self.merge(list(inputs))


class Add(Merge):
    """The sum of the inputs."""

    def merge(self, xs):
        return reduce(lambda a, b: a + b, xs)


class Subtract(Merge):
    """inputs[0] - inputs[1] (exactly two)."""

    def merge(self, xs):
        if len(xs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs, got {len(xs)}")
        return xs[0] - xs[1]


class Multiply(Merge):
    """The elementwise product of the inputs."""

    def merge(self, xs):
        return reduce(lambda a, b: a * b, xs)


class Average(Merge):
    """The elementwise mean of the inputs."""

    def merge(self, xs):
        return reduce(lambda a, b: a + b, xs) / float(len(xs))


class Maximum(Merge):
    """The elementwise maximum of the inputs."""

    def merge(self, xs):
        return reduce(K.maximum, xs)


class Minimum(Merge):
    """The elementwise minimum of the inputs."""

    def merge(self, xs):
        return reduce(K.minimum, xs)


class Concatenate(Merge):
    """The inputs joined along `axis`."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def merge(self, xs):
        return K.concatenate(xs, axis=self.axis)

    def get_config(self):
        return dict(super().get_config(), axis=self.axis)


class Dot(Merge):
    """Batchwise dot product of two inputs along `axes` (l2-normalized first when normalize: cosine proximity)."""

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        self.axes, self.normalize = axes, normalize

    def merge(self, xs):
        if len(xs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs, got {len(xs)}")
        x, y = xs
        axes = (self.axes, self.axes) if isinstance(self.axes, int) else tuple(self.axes)
        axes = tuple(a % K.ndim(t) for a, t in zip(axes, (x, y)))
        if self.normalize:
            x, y = K.l2_normalize(x, axis=axes[0]), K.l2_normalize(y, axis=axes[1])
        return K.batch_dot(x, y, axes)

    def get_config(self):
        return dict(super().get_config(), axes=self.axes, normalize=self.normalize)


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes, normalize=False, **kwargs):
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)
