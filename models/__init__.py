"""Model builders, found by name.

A builder is `build(features, labels, task, seed=0, **hparams) -> ModelSpec`: it adds its variables and ops to
the default graph, given the features placeholder (n, ...), the labels placeholder (int64 class ids (n,),
float targets (n,) or 0/1 labels (n, k)) and a Task saying which, and returns the loss, the predictions and
metrics that are means over the samples fed (see models.spec). Builders refuse data of the wrong kind.
Each registration also declares the hyper-parameters the builder takes, so `check_hparams` can refuse
`--hidden` for a model without hidden layers before anything is built.
"""
from . import cnn, linear, logistic, mlp, multilabel
from .spec import HPARAMS, ModelSpec, Task

_BUILDERS = {}
_TAKES = {}


def register(name, build, hparams=()):
    """Make `build` the model `name`; `hparams` names the keyword hyper-parameters it takes (see spec.HPARAMS)."""
    unknown = set(hparams) - set(HPARAMS)
    if unknown:
        raise ValueError(f"model {name!r} declares unknown hyper-parameter(s) {sorted(unknown)!r}; "
                         f"known: {sorted(HPARAMS)!r}")
    _BUILDERS[name], _TAKES[name] = build, tuple(hparams)


register("linear", linear.build)
register("logistic", logistic.build)
register("mlp", mlp.build, ("hidden",))
register("multilabel", multilabel.build, ("hidden",))
register("cnn", cnn.build)

__all__ = ["ModelSpec", "Task", "check_hparams", "get", "hparams", "names", "register"]


def names():
    """The registered model names."""
    return sorted(_BUILDERS)


def get(name):
    """The builder registered as `name`."""
    try:
        return _BUILDERS[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}; known: {', '.join(names())}") from None


def hparams(name):
    """The hyper-parameter names model `name` takes, e.g. ('hidden',)."""
    get(name)
    return _TAKES[name]


def check_hparams(name, given):
    """`given` ({name: value}) checked against what model `name` takes; returns the values normalized.

    None values count as not given (a flag left at its default)."""
    takes = hparams(name)
    given = {k: v for k, v in dict(given).items() if v is not None}
    for key in given:
        if key not in takes:
            flag = "--" + key.replace("_", "-")
            offer = (f"it takes {', '.join(takes)}" if takes else "it takes no hyper-parameters")
            users = [m for m in names() if key in _TAKES[m]]
            raise ValueError(f"model {name!r} has no {key!r} ({flag}): {offer}; drop {flag}"
                             + (f" or pick a model that takes it: {', '.join(users)}" if users else ""))
    return {key: HPARAMS[key](name, value) for key, value in given.items()}
