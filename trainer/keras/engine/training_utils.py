"""What compile builds on a model's outputs: per output a target and a sample-weight placeholder, its loss and its
metrics; the total loss is the weighted sum of the output losses plus the layers' regularization losses."""
from ...framework.graph import get_default_graph
from ...ops.math_ops import add_n
from .. import backend as K
from .. import losses as losses_module
from .. import metrics as metrics_module
from ..utils.generic_utils import to_list
from .base_layer import mask_of


def per_output(value, names, what, default=None):
    """`value` (one for all, a list in output order, or a dict by output name) as one entry per output."""
    if isinstance(value, dict):
        unknown = set(value) - set(names)
        if unknown:
            raise ValueError(f"Unknown entries in {what} dictionary: {sorted(unknown)}. Only expected the "
                             f"following keys: {names}")
        return [value.get(n, default) for n in names]
    if isinstance(value, (list, tuple)) and what != "metrics":
        if len(value) != len(names):
            raise ValueError(f"When passing a list as {what}, it should have one entry per model output. The "
                             f"model has {len(names)} outputs, but you passed {what}={value!r}")
        return list(value)
    return [value] * len(names)


def mean_per_sample(t):
    """A per-sample value: the mean over every axis but the batch."""
    rank = K.ndim(t)
    return K.mean(t, axis=list(range(1, rank))) if rank and rank > 1 else t


def output_mask(output, like):
    """The Keras mask of a model output as floats (dtype of `like`, else floatx), None where it has none."""
    mask = mask_of(output)
    return None if mask is None else K.cast(mask, K.dtype(like) if like is not None else K.floatx())


class Objective:
    """The loss and metric tensors of a compiled model, with the placeholders they are fed through."""

    def __init__(self, outputs, names, loss, loss_weights, metrics, regularization):
        loss_fns = [losses_module.get(f) for f in per_output(loss, names, "loss")]
        weights = per_output(loss_weights, names, "loss_weights", 1.0) if loss_weights is not None \
            else [1.0] * len(names)
        wanted = per_output(metrics, names, "metrics") if isinstance(metrics, dict) else [metrics] * len(names)
        graph = get_default_graph()
        self.loss_functions, self.targets, self.sample_weights = loss_fns, [], []
        self.metrics_names, self.metrics_tensors = ["loss"], []
        weighted, output_losses = [], []
        with graph.name_scope("loss"):
            for output, name, fn, weight in zip(outputs, names, loss_fns, weights):
                if fn is None:  # an output without a loss takes no targets
                    self.targets.append(None)
                    self.sample_weights.append(None)
                    continue
                target = K.placeholder(ndim=K.ndim(output), dtype=K.dtype(output), name=f"{name}_target")
                sample_weight = K.placeholder(ndim=1, name=f"{name}_sample_weights")
                self.targets.append(target)
                self.sample_weights.append(sample_weight)
                with graph.name_scope(f"{name}_loss"):
                    per_sample = fn.call(target, output) if isinstance(fn, losses_module.Loss) else fn(target, output)
                    mask = output_mask(output, per_sample)
                    if mask is not None:  # TF 1.15: masked entries weigh 0, the mean still counts them
                        per_sample = per_sample * mask
                    value = K.mean(mean_per_sample(per_sample) * sample_weight)
                weighted.append(value * weight if weight != 1.0 else value)
                output_losses.append(value)
            if len(names) > 1:
                self.metrics_names += [f"{n}_loss" for n, fn in zip(names, loss_fns) if fn is not None]
                self.metrics_tensors += output_losses
            terms = weighted + list(regularization)
            self.total_loss = add_n(terms) if len(terms) > 1 else terms[0]
        with graph.name_scope("metrics"):
            for output, name, fn, target, asked in zip(outputs, names, loss_fns, self.targets, wanted):
                for metric in to_list(asked) if target is not None else []:
                    metric_fn, suffix = metrics_module.resolve(metric, fn, K.int_shape(output))
                    label = suffix if len(names) == 1 else f"{name}_{suffix}"
                    with graph.name_scope(label):
                        value, mask = metric_fn(target, output), output_mask(output, None)
                        self.metrics_tensors.append(K.mean(mean_per_sample(value)) if mask is None else
                                                    K.sum(value * mask) / K.maximum(K.sum(mask), K.epsilon()))
                    self.metrics_names.append(label)

    def feeds(self):
        """The targets and sample weights to feed, in that order (outputs without a loss left out)."""
        return [t for t in self.targets if t is not None] + [w for w in self.sample_weights if w is not None]
