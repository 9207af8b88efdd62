"""Idioms of outside TF1 programs (the fifth held-out round) checked against real TensorFlow: an initializer given to
get_variable as its class, without parentheses (TF1 instantiates it), and a placeholder left unfed (an
InvalidArgumentError at Session.run). Recorded into fixtures/tf_oracle_held5.json (record_tf_oracle.py --family held5)."""
from .cases import call

INITIALIZERS = ("zeros", "ones", "constant", "random_normal", "truncated_normal", "random_uniform", "glorot_uniform",
                "glorot_normal")


def _initializer_class(name):
    return {"build": lambda tf: getattr(tf, f"{name}_initializer")}


def _unfed(tf):
    return tf.placeholder(tf.float32, [None, 3], name="images")


def cases():
    found = {}
    for name in INITIALIZERS:
        case = call("get_variable", "w", shape=[3, 4], initializer=_initializer_class(name))
        case["graph_seed"] = 7  # the random ones' draws, which ringflow makes as TF1 does
        found[f"held5/get_variable/initializer_class/{name}"] = case
    found["held5/placeholder/unfed"] = call("identity", {"build": _unfed})
    return found
