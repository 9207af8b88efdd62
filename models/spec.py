"""What a model builder receives and returns, and the checks of what it is given."""
import numbers
from dataclasses import dataclass, field
from typing import Callable, Optional


@dataclass(frozen=True)
class Task:
    """What the labels are: kind "regression" | "classes" | "multilabel", and outputs per sample."""
    kind: str
    num_outputs: int


@dataclass
class ModelSpec:
    """A built model.

    loss: scalar Tensor, the mean loss over the samples fed. metrics: name -> scalar Tensor, each a mean over
    the samples fed, so means over shards weighted by shard size give the global batch's value. report: turns
    such averaged metrics into the numbers shown to people (e.g. micro-F1 from tp/fp/fn rates); None = as is.
    """
    loss: object
    predictions: object
    metrics: dict = field(default_factory=dict)
    report: Optional[Callable[[dict], dict]] = None

    def summarize(self, averaged):
        return dict(self.report(averaged) if self.report else averaged)


def require(model, task, kind):
    """Raise a clear error when a model is given data of the wrong kind."""
    if task.kind != kind:
        raise ValueError(f"model {model!r} learns {kind} labels, but the dataset has {task.kind} labels; "
                         f"pick a model for {task.kind} data (see `ringflow train --help`)")


def hidden_sizes(model, value):
    """`hidden` as a tuple of positive layer widths (empty: no hidden layer); "512,512" is read too."""
    sizes = value.split(",") if isinstance(value, str) else (value,) if isinstance(value, numbers.Number) else value
    try:
        sizes = tuple(sizes)
    except TypeError:
        raise ValueError(f"model {model!r}: hidden must be layer sizes such as (512, 512), got {value!r}") from None
    widths = []
    for s in sizes:
        width = int(s) if isinstance(s, str) and s.strip().isdigit() else s
        if isinstance(width, bool) or not isinstance(width, numbers.Integral) or width < 1:
            raise ValueError(f"model {model!r}: hidden layer sizes must be positive integers, got {s!r} in "
                             f"{value!r} (e.g. --hidden 512,512)")
        widths.append(int(width))
    return tuple(widths)


# The hyper-parameters a builder may take, each with the function that checks and normalizes its value.
HPARAMS = {"hidden": hidden_sizes}
