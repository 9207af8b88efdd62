"""The seeds' linear regression z = x·W + b with a mean squared error."""
import trainer as tg

from .spec import ModelSpec, require


def build(features, labels, task, seed=0):
    require("linear", task, "regression")
    weight = tg.get_variable("weight", [features.shape[-1]], dtype=features.dtype,
                             initializer=tg.random_normal_initializer(0.0, 1.0, seed=seed))
    bias = tg.get_variable("bias", [1], dtype=features.dtype, initializer=tg.zeros_initializer())
    z = tg.reduce_sum(features * weight, axis=1) + bias
    loss = tg.reduce_mean(tg.square(labels - z))
    return ModelSpec(loss=loss, predictions=z)
