"""tf.layers.BatchNormalization and batch_normalization: TF1's fused kernel where it applies and `training` is a
Python bool, else composed from differentiable ops.

Training normalizes with the batch's mean and (biased) variance and adds the moving-average updates
moving -= (moving - batch) * (1 - momentum) to GraphKeys.UPDATE_OPS; inference uses the moving statistics.
Like TF1's fused kernel (its default for 4-D float32/float16 inputs normalized over channels), the moving
variance then takes the batch variance with Bessel's correction, n / (n - 1); other inputs update it with
the biased one, as TF1's unfused path does.
"""
import numpy as np

from ..framework import dtypes
from ..ops.initializers import ones_initializer, zeros_initializer
from ..ops.array_ops import cast, reshape, shape as shape_of
from ..ops.batch_norm_ops import fused_batch_norm
from ..ops.core_ops import constant
from ..ops.math_ops import sqrt, square, where
from ..ops.reduction_ops import reduce_mean
from .base import Layer, static_dims
from .core import training_flag


def _not_supported(what, value, default):
    if value != default:
        raise NotImplementedError(f"batch_normalization {what}={value!r} is not supported; leave it at {default!r}")


class BatchNormalization(Layer):
    """Normalize over every axis except `axis`, then scale by gamma and shift by beta (per `axis` entry)."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer=zeros_initializer(), gamma_initializer=ones_initializer(),
                 moving_mean_initializer=zeros_initializer(), moving_variance_initializer=ones_initializer(),
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 renorm=False, renorm_clipping=None, renorm_momentum=0.99, fused=None, trainable=True,
                 virtual_batch_size=None, adjustment=None, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        _not_supported("renorm", renorm, False)
        _not_supported("virtual_batch_size", virtual_batch_size, None)
        _not_supported("adjustment", adjustment, None)
        self.axis = [axis] if isinstance(axis, int) else list(axis)
        self.momentum, self.epsilon, self.center, self.scale = momentum, epsilon, center, scale
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.fused = fused

    def build(self, input_shape):
        if input_shape is None:
            raise ValueError(f"BatchNormalization layer {self.name!r} needs inputs of known rank")
        ndims = len(input_shape)
        axes = [a + ndims if a < 0 else a for a in self.axis]
        if any(not 0 <= a < ndims for a in axes) or len(set(axes)) != len(axes):
            raise ValueError(f"Invalid axis {self.axis!r} for inputs of shape {input_shape}")
        if any(input_shape[a] is None for a in axes):
            raise ValueError(f"BatchNormalization layer {self.name!r}: inputs of shape {input_shape} have an "
                             f"unknown dimension on axis {self.axis!r}")
        self.axis = axes
        fusable = ndims == 4 and axes in ([1], [3]) and self.dtype in (dtypes.float16, dtypes.float32)
        if self.fused and not fusable:
            raise ValueError(f"fused=True needs 4-D float32/float16 inputs normalized over axis 1 or 3, got "
                             f"shape {input_shape}, axis {self.axis!r}, dtype {self.dtype!r}")
        self.fused = fusable if self.fused is None else bool(self.fused)
        if len(axes) == 1:
            param_shape = (input_shape[axes[0]],)
        else:
            param_shape = tuple(input_shape[i] if i in axes else 1 for i in range(ndims))
        # float16 inputs keep float32 statistics and parameters, as in TF1.
        self._param_dtype = dtypes.float32 if self.dtype == dtypes.float16 else self.dtype
        self._param_shape = param_shape

        def weight(name, initializer, regularizer=None, constraint=None, trainable=True):
            return self.add_weight(name, param_shape, dtype=self._param_dtype, initializer=initializer,
                                   regularizer=regularizer, constraint=constraint, trainable=trainable)
        self.gamma = self.beta = None
        if self.scale:
            self.gamma = weight("gamma", self.gamma_initializer, self.gamma_regularizer, self.gamma_constraint)
        if self.center:
            self.beta = weight("beta", self.beta_initializer, self.beta_regularizer, self.beta_constraint)
        self.moving_mean = weight("moving_mean", self.moving_mean_initializer, trainable=False)
        self.moving_variance = weight("moving_variance", self.moving_variance_initializer, trainable=False)

    def call(self, inputs, training=False):
        training = training_flag(training)
        if self.fused and isinstance(training, bool):
            return self._fused_call(inputs, training)
        dims = static_dims(inputs)
        ndims = len(dims)
        x = inputs if inputs.dtype == self._param_dtype else cast(inputs, self._param_dtype)
        # A 1-D parameter broadcasts against the last axis only; any other axis needs it as (1, C, 1, ...).
        stretch = len(self.axis) == 1 and self.axis[0] != ndims - 1
        broadcast_shape = tuple(dims[i] if i in self.axis else 1 for i in range(ndims))

        def broadcast(p):
            return reshape(p, broadcast_shape) if stretch else p
        mean, variance = broadcast(self.moving_mean), broadcast(self.moving_variance)
        if training is not False:
            reduce_axes = [i for i in range(ndims) if i not in self.axis]
            batch_mean = reduce_mean(x, reduce_axes, keepdims=True)
            batch_variance = reduce_mean(square(x - batch_mean), reduce_axes, keepdims=True)
            if training is True:
                mean, variance = batch_mean, batch_variance
            else:
                mean, variance = where(training, batch_mean, mean), where(training, batch_variance, variance)
            if self.fused:
                count = self._count(x, dims, reduce_axes)
                batch_variance = batch_variance * (count / (count - 1.0))
            self._add_moving_updates(batch_mean, batch_variance, training)
        inverse = 1.0 / sqrt(variance + self.epsilon)
        if self.scale:
            inverse = inverse * broadcast(self.gamma)
        outputs = (x - mean) * inverse
        if self.center:
            outputs = outputs + broadcast(self.beta)
        return outputs if outputs.dtype == inputs.dtype else cast(outputs, inputs.dtype)

    def _count(self, x, dims, reduce_axes):
        """The number of values each statistic is taken over: static where the dims are known."""
        count = constant(float(_product(dims[i] for i in reduce_axes if dims[i] is not None)),
                         dtype=self._param_dtype)
        unknown = [i for i in reduce_axes if dims[i] is None]
        if unknown:
            sizes = shape_of(x)
            for i in unknown:
                count = count * cast(sizes[i], self._param_dtype)
        return count

    def _fused_call(self, inputs, training):
        """TF1's fused kernel (FusedBatchNormV3 and its gradient op) where `training` is known when the graph is
        built; a bool Tensor takes the composed ops above, which select between the two statistics at run time."""
        scale = self.gamma if self.scale else constant(1.0, dtype=self._param_dtype, shape=self._param_shape)
        offset = self.beta if self.center else constant(0.0, dtype=self._param_dtype, shape=self._param_shape)
        outputs, batch_mean, batch_variance = fused_batch_norm(
            inputs, scale, offset, mean=self.moving_mean, variance=self.moving_variance, epsilon=self.epsilon,
            data_format="NHWC" if self.axis == [3] else "NCHW", is_training=training)
        if training:
            self._add_moving_updates(batch_mean, batch_variance, training)
        return outputs

    def _add_moving_updates(self, batch_mean, batch_variance, training):
        # TF1 converts the Python float to a float32 Tensor and casts that to the variables' dtype
        decay = float(np.float32(1.0 - self.momentum))
        if training is not True:
            decay = where(training, constant(decay, dtype=self._param_dtype),
                          constant(0.0, dtype=self._param_dtype), name="decay")
        for var, value in [(self.moving_mean, batch_mean), (self.moving_variance, batch_variance)]:
            delta = (var - reshape(value, self._param_shape)) * decay
            self.add_update(var.assign_sub(delta, name="AssignMovingAvg"))


def _product(values):
    out = 1
    for v in values:
        out *= v
    return out


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=zeros_initializer(), gamma_initializer=ones_initializer(),
                        moving_mean_initializer=zeros_initializer(), moving_variance_initializer=ones_initializer(),
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                        training=False, trainable=True, name=None, reuse=None, renorm=False, renorm_clipping=None,
                        renorm_momentum=0.99, fused=None, virtual_batch_size=None, adjustment=None):
    """Batch normalization; `training` (Python bool or bool Tensor) picks batch or moving statistics.

    Variables: <scope>/gamma, beta (trainable), moving_mean, moving_variance (not trainable). While training,
    run the ops in tg.get_collection(tg.GraphKeys.UPDATE_OPS) with the train op to update the moving ones.
    """
    layer = BatchNormalization(axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
                               beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
                               moving_mean_initializer=moving_mean_initializer,
                               moving_variance_initializer=moving_variance_initializer,
                               beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                               beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
                               renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
                               trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
                               name=name, _scope=name, _reuse=reuse)
    return layer.apply(inputs, training=training)
