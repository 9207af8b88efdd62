"""Keras' BatchNormalization: batch statistics while training (and moving averages updated by fit), the moving
averages at inference, switched by the learning phase; LayerNormalization: each example's own statistics."""
from ...ops.batch_norm_ops import batch_normalization, fused_batch_norm
from ...ops.nn_impl import moments
from .. import constraints, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer
from ..utils.generic_utils import serialized
from .weights import keep_weight_settings


class BatchNormalization(Layer):
    """gamma * (x - mean) / sqrt(var + epsilon) + beta over `axis` (the channels)."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 renorm=False, fused=None, trainable=True, virtual_batch_size=None, adjustment=None, **kwargs):
        super().__init__(trainable=trainable, **kwargs)
        if renorm or virtual_batch_size or adjustment:
            raise ValueError("BatchNormalization: renorm, virtual_batch_size and adjustment are not available in "
                             "ringflow")
        self.axis, self.momentum, self.epsilon, self.center, self.scale = axis, momentum, epsilon, center, scale
        keep_weight_settings(self, "beta", beta_initializer, beta_regularizer, beta_constraint)
        keep_weight_settings(self, "gamma", gamma_initializer, gamma_regularizer, gamma_constraint)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.fused = fused

    def build(self, input_shape):
        rank = len(input_shape)
        self.channel_axis = self.axis % rank
        dim = input_shape[self.channel_axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the layer "
                             f"received an input with shape {input_shape}.")
        self.input_spec = InputSpec(ndim=rank, axes={self.channel_axis: dim})
        shape = (dim,)
        self.gamma = self.add_weight("gamma", shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint) \
            if self.scale else None
        self.beta = self.add_weight("beta", shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint) \
            if self.center else None
        self.moving_mean = self.add_weight("moving_mean", shape, initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", shape,
                                               initializer=self.moving_variance_initializer, trainable=False)
        # TF 1.15 takes the fused kernel for 4-D inputs normalized over channels (NHWC or NCHW), whose moving
        # variance is the unbiased (Bessel-corrected) batch variance; the other inputs keep the biased one
        self.unbiased = self.fused is not False and rank == 4 and self.channel_axis in (1, 3)
        self.built = True

    def call(self, inputs, training=None):
        if self.unbiased and K.dtype(inputs) == "float32":
            return self._fused_call(inputs, training)
        rank = K.ndim(inputs)
        axes = [i for i in range(rank) if i != self.channel_axis]
        mean, variance = self._moments(inputs, axes, keep_dims=False)
        batch_variance = variance
        if self.unbiased:
            count = K.cast(K.prod(K.shape(inputs)) // K.shape(inputs)[self.channel_axis], K.dtype(variance))
            batch_variance = variance * count / K.maximum(count - 1.0, 1.0)

        def along_channels(t):  # (channels,) against inputs whose channels are not the last axis
            if t is None or self.channel_axis == rank - 1:
                return t
            return K.reshape(t, [K.int_shape(inputs)[i] if i == self.channel_axis else 1 for i in range(rank)])

        def normalize(m, v):
            return batch_normalization(inputs, along_channels(m), along_channels(v), along_channels(self.beta),
                                       along_channels(self.gamma), self.epsilon)
        new_mean = K.in_train_phase(mean, self.moving_mean, training=training)
        new_variance = K.in_train_phase(batch_variance, self.moving_variance, training=training)
        self.add_update([K.moving_average_update(self.moving_mean, new_mean, self.momentum),
                         K.moving_average_update(self.moving_variance, new_variance, self.momentum)])
        return K.in_train_phase(lambda: normalize(mean, variance),
                                lambda: normalize(self.moving_mean, self.moving_variance), training=training)

    def _fused_call(self, inputs, training):
        """TF 1.15's fused path (FusedBatchNormV3 and its gradient op: two kernels where the formula above takes
        about fifteen and their gradients), with the batch's statistics while training, the moving ones otherwise;
        the moving variance takes the batch's with Bessel's correction, as the fused kernel returns it."""
        data_format = "NHWC" if self.channel_axis == 3 else "NCHW"
        gamma = self.gamma if self.scale else K.ones_like(self.moving_mean)
        beta = self.beta if self.center else K.zeros_like(self.moving_mean)

        def train():
            return fused_batch_norm(inputs, gamma, beta, epsilon=self.epsilon, data_format=data_format)

        def infer():
            outputs = fused_batch_norm(inputs, gamma, beta, self.moving_mean, self.moving_variance, self.epsilon,
                                       data_format, is_training=False)[0]
            return outputs, self.moving_mean, self.moving_variance
        outputs, mean, variance = K.in_train_phase(train, infer, training=training)
        self.add_update([K.moving_average_update(self.moving_mean, mean, self.momentum),
                         K.moving_average_update(self.moving_variance, variance, self.momentum)])
        return outputs

    def _moments(self, inputs, reduction_axes, keep_dims):
        """The batch's (mean, variance) over reduction_axes: the override point of TF's layer, which Horovod's
        SyncBatchNormalization replaces to average the statistics over the ranks."""
        return moments(inputs, reduction_axes, keepdims=keep_dims)

    def get_config(self):
        return dict(super().get_config(), axis=self.axis, momentum=self.momentum, epsilon=self.epsilon,
                    center=self.center, scale=self.scale,
                    beta_initializer=serialized(initializers, self.beta_initializer),
                    gamma_initializer=serialized(initializers, self.gamma_initializer),
                    moving_mean_initializer=serialized(initializers, self.moving_mean_initializer),
                    moving_variance_initializer=serialized(initializers, self.moving_variance_initializer),
                    beta_regularizer=serialized(regularizers, self.beta_regularizer),
                    gamma_regularizer=serialized(regularizers, self.gamma_regularizer),
                    beta_constraint=serialized(constraints, self.beta_constraint),
                    gamma_constraint=serialized(constraints, self.gamma_constraint))


class LayerNormalization(Layer):
    """gamma * (x - mean) / sqrt(var + epsilon) + beta, the moments taken over `axis` of each example."""

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, trainable=True, **kwargs):
        super().__init__(trainable=trainable, **kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else axis
        self.epsilon, self.center, self.scale = epsilon, center, scale
        keep_weight_settings(self, "beta", beta_initializer, beta_regularizer, beta_constraint)
        keep_weight_settings(self, "gamma", gamma_initializer, gamma_regularizer, gamma_constraint)
        self.supports_masking = True

    def build(self, input_shape):
        rank = len(input_shape)
        self.axes = sorted(a % rank for a in (self.axis if isinstance(self.axis, list) else [self.axis]))
        shape = [input_shape[a] for a in self.axes]
        if None in shape:
            raise ValueError(f"LayerNormalization: axes {self.axes} of the input shape {input_shape} must be known")
        self.gamma = self.add_weight("gamma", shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint) \
            if self.scale else None
        self.beta = self.add_weight("beta", shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint) \
            if self.center else None
        self.built = True

    def call(self, inputs):
        rank = K.ndim(inputs)
        broadcast = [K.int_shape(inputs)[a] if a in self.axes else 1 for a in range(rank)]
        mean, variance = moments(inputs, self.axes, keepdims=True)
        scale = K.reshape(self.gamma, broadcast) if self.scale else None
        offset = K.reshape(self.beta, broadcast) if self.center else None
        return batch_normalization(inputs, mean, variance, offset, scale, self.epsilon)

    def get_config(self):
        return dict(super().get_config(), axis=self.axis, epsilon=self.epsilon, center=self.center,
                    scale=self.scale, beta_initializer=serialized(initializers, self.beta_initializer),
                    gamma_initializer=serialized(initializers, self.gamma_initializer),
                    beta_regularizer=serialized(regularizers, self.beta_regularizer),
                    gamma_regularizer=serialized(regularizers, self.gamma_regularizer),
                    beta_constraint=serialized(constraints, self.beta_constraint),
                    gamma_constraint=serialized(constraints, self.gamma_constraint))
