"""Multinomial logistic regression: one dense layer to the class logits."""
from .layers import classification, dense, flatten
from .spec import require


def build(features, labels, task, seed=0):
    require("logistic", task, "classes")
    logits = dense(flatten(features), task.num_outputs, "logits", seed=seed)
    return classification("logistic", logits, labels)
