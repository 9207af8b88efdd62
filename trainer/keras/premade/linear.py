"""tf.keras.experimental.LinearModel: a linear (or generalized linear) model, one bias-free Dense kernel per input
summed, then a bias and the activation, as TF 1.15's premade LinearModel computes it."""
from .. import activations, initializers, regularizers
from ..engine.training import Model
from ..layers.core import Dense
from ..utils.generic_utils import to_list


class LinearModel(Model):
    """units outputs of sum_i inputs_i @ kernel_i + bias (kernels and bias zero-initialized, as TF's)."""

    def __init__(self, units=1, activation=None, use_bias=True, kernel_initializer="zeros", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self.units, self.activation, self.use_bias = units, activations.get(activation), use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.dense_layers, self.bias = [], None

    def call(self, inputs):
        inputs = to_list(inputs)
        if not self.dense_layers:  # the first call makes one kernel per input
            self.dense_layers = [Dense(self.units, use_bias=False, kernel_initializer=self.kernel_initializer,
                                       kernel_regularizer=self.kernel_regularizer) for _ in inputs]
            if self.use_bias:
                self.bias = self.add_weight("bias", (self.units,), initializer=self.bias_initializer,
                                            regularizer=self.bias_regularizer)
        if len(inputs) != len(self.dense_layers):
            raise ValueError(f"Expected {len(self.dense_layers)} inputs, but got {len(inputs)} inputs")
        result = None
        for x, layer in zip(inputs, self.dense_layers):
            result = layer(x) if result is None else result + layer(x)
        if self.bias is not None:
            result = result + self.bias
        return self.activation(result)

    def get_config(self):
        return {"name": self.name, "trainable": self.trainable, "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)
