"""tf.keras.experimental.WideDeepModel: a linear ("wide") and a DNN ("deep") model averaged, each trained by an
optimizer of its own on the same loss, as TF 1.15's premade WideDeepModel does in graph mode."""
from .. import activations
from ..engine.training import Model
from ..layers import serialization
from ..utils.generic_utils import to_list


class WideDeepModel(Model):
    """0.5 * (linear_model(linear inputs) + dnn_model(dnn inputs)), then `activation`; given [linear, dnn] inputs
    each model takes its own, else both take the same. compile(optimizer=[linear's, dnn's]) (or one for both)."""

    def __init__(self, linear_model, dnn_model, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.linear_model, self.dnn_model = linear_model, dnn_model
        self.activation = activations.get(activation)

    def call(self, inputs):
        if isinstance(inputs, (list, tuple)) and len(inputs) == 2:
            linear_inputs, dnn_inputs = inputs
        else:
            linear_inputs = dnn_inputs = inputs
        output = 0.5 * (self.linear_model(linear_inputs) + self.dnn_model(dnn_inputs))
        return self.activation(output) if self.activation is not None else output

    def training_updates(self):
        linear_optimizer, dnn_optimizer = self.optimizer if isinstance(self.optimizer, list) \
            else (self.optimizer, self.optimizer)
        return to_list(linear_optimizer.get_updates(self.total_loss, self.linear_model.trainable_weights)) + \
            to_list(dnn_optimizer.get_updates(self.total_loss, self.dnn_model.trainable_weights))

    def get_config(self):
        return {"name": self.name, "trainable": self.trainable,
                "linear_model": serialization.serialize(self.linear_model),
                "dnn_model": serialization.serialize(self.dnn_model),
                "activation": activations.serialize(self.activation)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        linear = serialization.deserialize(config.pop("linear_model"), custom_objects=custom_objects)
        dnn = serialization.deserialize(config.pop("dnn_model"), custom_objects=custom_objects)
        return cls(linear, dnn, **config)
