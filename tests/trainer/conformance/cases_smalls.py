"""Keras' binary cross-entropy as TF 1.15's backend computes it: from the logits of a Sigmoid op's output (a
saturated sigmoid keeps its loss and gradient), from clipped probabilities otherwise."""
from .cases import call, t

LOGITS = [[-30.0, 0.5, 20.0], [3.0, -4.0, 0.0]]  # two saturated: clipping would cap their loss near 15.4
TARGETS = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.5]]


def _constant(values):
    return {"make": "constant", "args": [{"py": values}], "kwargs": {}}


def cases():
    sigmoid = {"make": "sigmoid", "args": [_constant(LOGITS)], "kwargs": {}}
    return {
        "smalls/keras_binary_crossentropy/sigmoid_output": call("keras.backend.binary_crossentropy",
                                                                _constant(TARGETS), sigmoid),
        "smalls/keras_binary_crossentropy/probabilities": call("keras.backend.binary_crossentropy",
                                                               t("float32", (2, 3), "prob", 1),
                                                               t("float32", (2, 3), "prob")),
        "smalls/keras_binary_crossentropy/from_logits": call("keras.backend.binary_crossentropy",
                                                             _constant(TARGETS), _constant(LOGITS), from_logits=True),
        "smalls/keras_losses_binary_crossentropy/sigmoid_output": call("keras.losses.binary_crossentropy",
                                                                       _constant(TARGETS), sigmoid),
    }
