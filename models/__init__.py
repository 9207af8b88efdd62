"""Model builders, found by name.

A builder is `build(features, labels, task, seed=0, **hparams) -> ModelSpec`: it adds its variables and ops to
the default graph, given the features placeholder (n, ...), the labels placeholder (int64 class ids (n,),
float targets (n,) or 0/1 labels (n, k)) and a Task saying which, and returns the loss, the predictions and
metrics that are means over the samples fed (see models.spec). Builders refuse data of the wrong kind.
"""
from . import cnn, linear, logistic, mlp, multilabel
from .spec import ModelSpec, Task

_BUILDERS = {
    "linear": linear.build,
    "logistic": logistic.build,
    "mlp": mlp.build,
    "multilabel": multilabel.build,
    "cnn": cnn.build,
}

__all__ = ["ModelSpec", "Task", "get", "names"]


def names():
    """The registered model names."""
    return sorted(_BUILDERS)


def get(name):
    """The builder registered as `name`."""
    try:
        return _BUILDERS[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}; known: {', '.join(names())}") from None
