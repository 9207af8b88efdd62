"""A multi-layer perceptron classifier: ReLU hidden layers, softmax output."""
import trainer as tg

from .layers import classification, dense, flatten
from .spec import require


def build(features, labels, task, seed=0, hidden=(512, 512)):
    require("mlp", task, "classes")
    x = flatten(features)
    for i, units in enumerate(hidden):
        x = dense(x, units, f"hidden{i + 1}", activation=tg.nn.relu, seed=seed + i)
    logits = dense(x, task.num_outputs, "logits", seed=seed + len(hidden))
    return classification("mlp", logits, labels)
