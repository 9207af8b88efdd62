"""What compile builds on a model's outputs: per output a target (a placeholder, or compile's target tensor) and a
sample-weight placeholder (one weight per sample, or per timestep in sample_weight_mode='temporal'), its loss and
its metrics; the total loss is the weighted sum of the output losses plus the layers' regularization losses.

A metric is a running mean over the epoch, as TF 1.15's stateful metrics are: each batch gives the weighted sum of
its values and the sum of the weights, and the epoch's value divides the totals. A Metric object that is no mean of
a per-sample function (Precision, AUC, ...) keeps its own running state in its variables: each batch updates it and
reads its result. An output's Keras mask weighs its masked entries 0 in losses and metrics; `weighted_metrics` are
also weighted by the sample weights."""
import numpy as np

from ...framework.graph import get_default_graph
from ...ops.math_ops import add_n
from .. import backend as K
from .. import losses as losses_module
from .. import metrics as metrics_module
from ..metrics.base import Metric
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
    if isinstance(value, (list, tuple)) and what not in ("metrics", "weighted_metrics"):
        if len(value) != len(names):
            raise ValueError(f"When passing a list as {what}, it should have one entry per model output. The "
                             f"model has {len(names)} outputs, but you passed {what}={value!r}")
        return list(value)
    return [value] * len(names)


def output_mask(output, like):
    """The Keras mask of a model output as floats (dtype of `like`, else floatx), None where it has none."""
    mask = mask_of(output)
    return None if mask is None else K.cast(mask, K.dtype(like) if like is not None else K.floatx())


def weights_like(weights, values):
    """`weights` given trailing axes until they broadcast against `values` (TF's squeeze_or_expand_dimensions)."""
    while K.ndim(weights) < K.ndim(values):
        weights = K.expand_dims(weights, -1)
    return weights


def masked(weights, output, values):
    """The weights of `values` with the output's mask folded in (None when neither is there)."""
    mask = output_mask(output, values)
    if mask is None:
        return weights
    return mask if weights is None else weights_like(weights, mask) * mask


def mean_parts(values, weights):
    """(weighted sum, sum of weights) of per-sample values: the two halves of a running mean."""
    if weights is None:
        return K.sum(values), K.cast(K.prod(K.shape(values)), K.dtype(values))
    weights = weights_like(weights, values) * K.ones_like(values)
    return K.sum(values * weights), K.sum(weights)


def ratio(total, count):
    """total / count, 0 where nothing was weighed (TF's div_no_nan)."""
    return float(total / count) if count else 0.0


def standardize_weights(y, size, sample_weight, class_weight, mode, name, output_shape):
    """The weights fed for one output, as TF 1.15's standardize_weights makes them: `sample_weight` (one per sample,
    or per timestep when `mode` is 'temporal'; ones when None) times `class_weight[class of each sample]`."""
    temporal = mode == "temporal"
    if sample_weight is None:
        steps = y.shape[1] if y is not None else output_shape[1]
        weights = np.ones((size, steps) if temporal else size, dtype=K.floatx())
    else:
        weights = np.asarray(sample_weight, dtype=K.floatx())
        if temporal and weights.ndim != 2:
            raise ValueError(f"Found a sample_weight array with shape {weights.shape} for output {name!r}. In order "
                             "to use timestep-wise sample weighting, you should pass a 2D sample_weight array.")
        if not temporal and weights.ndim != 1:
            raise ValueError(f"Found a sample_weight array with shape {weights.shape} for output {name!r}. In order "
                             "to use timestep-wise sample weights, you should specify sample_weight_mode='temporal' "
                             "in compile(). If you just mean to use sample-wise weights, make sure your "
                             "sample_weight array is 1D.")
        if y is not None and y.shape[:weights.ndim] != weights.shape:
            raise ValueError(f"Found a sample_weight array with shape {weights.shape} for an input with shape "
                             f"{y.shape} (output {name!r}). sample_weight cannot be broadcast.")
    if class_weight is None:
        return weights
    if y is None:
        raise ValueError(f"class_weight needs output {name!r}'s targets as arrays, not compile's target_tensors")
    if y.ndim > 2:
        raise ValueError(f"`class_weight` not supported for 3+ dimensional targets (output {name!r} has shape "
                         f"{y.shape}); weigh timesteps with sample_weight_mode='temporal' instead")
    classes = (y.argmax(axis=1) if y.ndim == 2 and y.shape[1] > 1 else y.reshape(len(y))).tolist()
    missing = set(classes) - set(class_weight)
    if missing:
        raise ValueError(f"`class_weight` must contain all classes in the data. The classes {missing} exist in the "
                         f"data but not in `class_weight` ({class_weight!r}).")
    return weights * np.array([class_weight[c] for c in classes], dtype=K.floatx())


class Objective:
    """The loss and metric tensors of a compiled model, with the placeholders they are fed through. `parts` holds
    per entry of metrics_names[1:] the (sum, count) tensors of its running mean, or (result,) for a Metric object
    that keeps its own running state (listed in `stateful_metrics`)."""

    def __init__(self, outputs, names, loss, loss_weights, metrics, regularization, weighted_metrics=None,
                 sample_weight_mode=None, target_tensors=None):
        loss_fns = [losses_module.get(f) for f in per_output(loss, names, "loss")]
        weights = per_output(loss_weights, names, "loss_weights", 1.0) if loss_weights is not None \
            else [1.0] * len(names)
        wanted = per_output(metrics, names, "metrics") if isinstance(metrics, dict) else [metrics] * len(names)
        wanted_weighted = per_output(weighted_metrics, names, "weighted_metrics") \
            if isinstance(weighted_metrics, dict) else [weighted_metrics] * len(names)
        modes = per_output(sample_weight_mode, names, "sample_weight_mode")
        given = per_output(target_tensors, names, "target_tensors") if target_tensors is not None \
            else [None] * len(names)
        graph = get_default_graph()
        self.loss_functions, self.targets, self.sample_weights = loss_fns, [], []
        self.fed_targets, self.fed_names = [], []
        self.sample_weight_modes = []
        self.metrics_names, self.metrics_tensors, self.parts = ["loss"], [], []
        self.stateful_metrics = []
        weighted, output_losses = [], []
        with graph.name_scope("loss"):
            for output, name, fn, weight, mode, target in zip(outputs, names, loss_fns, weights, modes, given):
                if fn is None:  # an output without a loss takes no targets
                    self.targets.append(None)
                    self.sample_weights.append(None)
                    self.sample_weight_modes.append(None)
                    continue
                if mode not in (None, "samplewise", "temporal"):
                    raise ValueError(f"sample_weight_mode should be None or 'temporal'; found {mode!r} for output "
                                     f"{name!r}")
                temporal = mode == "temporal"
                if temporal and K.ndim(output) is not None and K.ndim(output) < 3:
                    raise ValueError(f"sample_weight_mode='temporal' weighs timesteps, which output {name!r} of "
                                     f"shape {K.int_shape(output)} does not have: it needs at least 3 dimensions")
                if target is None:
                    target = K.placeholder(ndim=K.ndim(output), dtype=K.dtype(output), name=f"{name}_target")
                    self.fed_targets.append(target)
                    self.fed_names.append(name)
                sample_weight = K.placeholder(ndim=2 if temporal else 1, name=f"{name}_sample_weights")
                self.targets.append(target)
                self.sample_weights.append(sample_weight)
                self.sample_weight_modes.append("temporal" if temporal else None)
                with graph.name_scope(f"{name}_loss"):
                    per_sample = fn.call(target, output) if isinstance(fn, losses_module.Loss) else fn(target, output)
                    # TF 1.15: masked entries weigh 0, the mean still counts them
                    value = K.mean(per_sample * weights_like(masked(sample_weight, output, per_sample), per_sample))
                weighted.append(value * weight if weight != 1.0 else value)
                output_losses.append(value)
            if len(names) > 1:  # TF 1.15 keeps each output's loss as a running mean over batches
                self.metrics_names += [f"{n}_loss" for n, fn in zip(names, loss_fns) if fn is not None]
                self.metrics_tensors += output_losses
                self.parts += [(value, K.constant(1.0)) for value in output_losses]
            terms = weighted + list(regularization)
            self.total_loss = add_n(terms) if len(terms) > 1 else terms[0]
        with graph.name_scope("metrics"):
            for output, name, fn, target, sample_weight, asked, asked_weighted in zip(
                    outputs, names, loss_fns, self.targets, self.sample_weights, wanted, wanted_weighted):
                if target is None:
                    continue
                for metric, weight in [(m, None) for m in to_list(asked or [])] + \
                        [(m, sample_weight) for m in to_list(asked_weighted or [])]:
                    metric_fn, suffix = metrics_module.resolve(metric, fn, K.int_shape(output))
                    suffix = suffix if weight is None else f"weighted_{suffix}"
                    label = suffix if len(names) == 1 else f"{name}_{suffix}"
                    if isinstance(metric_fn, Metric):
                        result = metric_fn(target, output, sample_weight=masked(weight, output, output))
                        self.metrics_tensors.append(result)
                        self.parts.append((result,))
                        self.stateful_metrics.append(metric_fn)
                        self.metrics_names.append(label)
                        continue
                    with graph.name_scope(label):
                        values = metric_fn(target, output)
                        total, count = mean_parts(values, masked(weight, output, values))
                    self.metrics_tensors.append(total / K.maximum(count, K.epsilon()))
                    self.parts.append((total, count))
                    self.metrics_names.append(label)

    def feeds(self):
        """The targets and sample weights to feed, in that order (outputs without a loss, and targets compile was
        given as tensors, left out)."""
        return self.fed_targets + [w for w in self.sample_weights if w is not None]
