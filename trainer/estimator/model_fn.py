"""tf.estimator.EstimatorSpec: what a model_fn returns, checked as TF1 checks it.

TRAIN needs `loss` and `train_op`, EVAL needs `loss`, PREDICT needs `predictions`. Every Tensor must come from
the graph the Estimator is building (the default graph while model_fn runs).
"""
import collections

from ..framework.operation import Operation
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..ops.array_ops import reshape
from ..train.scaffold import Scaffold
from ..train.session_run_hook import SessionRunHook
from ..ops.variables import Variable
from .mode_keys import ModeKeys

LOSS_METRIC_KEY = "loss"  # evaluate() adds the mean loss under this name

_FIELDS = ("mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs", "training_chief_hooks",
           "training_hooks", "scaffold", "evaluation_hooks", "prediction_hooks")


def _same_graph(x, what):
    if x.graph is not get_default_graph():
        raise ValueError(f"{what} with {x.name!r} must be from the default graph. Possible causes: it was created "
                         "outside the graph model_fn builds in, or it was not created in the most recent call to "
                         "model_fn.")
    return x


def _tensor(x, what):
    if not isinstance(x, Tensor):
        raise TypeError(f"{what} must be Tensor, given: {x!r}")
    return _same_graph(x, what)


def _loss(loss, mode):
    if loss is None:
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
            raise ValueError("Missing loss.")
        return None
    loss = _tensor(loss, "loss")
    if loss.get_shape().num_elements() not in (None, 1):
        raise ValueError(f"Loss must be scalar, given: {loss!r} of shape {loss.get_shape()}")
    if not loss.get_shape().is_compatible_with(()):
        loss = reshape(loss, [])
    return loss


def _train_op(train_op, mode):
    if train_op is None:
        if mode == ModeKeys.TRAIN:
            raise ValueError("Missing train_op.")
        return None
    if not isinstance(train_op, (Operation, Tensor)):
        raise TypeError(f"train_op must be Operation or Tensor, given: {train_op!r}")
    if isinstance(train_op, Variable):
        train_op = train_op.op
    return _same_graph(train_op, "train_op")


def _predictions(predictions, mode):
    if predictions is None:
        if mode == ModeKeys.PREDICT:
            raise ValueError("Missing predictions.")
        return {}
    if isinstance(predictions, dict):
        return {k: _tensor(v, f"predictions[{k}]") for k, v in predictions.items()}
    return _tensor(predictions, "predictions")


def _hooks(hooks, what):
    hooks = tuple(hooks or ())
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook!r} in {what}")
    return hooks


def _eval_metric_ops(eval_metric_ops):
    if eval_metric_ops is None:
        return {}
    if not isinstance(eval_metric_ops, dict):
        raise TypeError(f"eval_metric_ops must be a dict, given: {eval_metric_ops!r}")
    for key, value in eval_metric_ops.items():
        if not isinstance(value, tuple) or len(value) != 2:
            raise TypeError(f"Values of eval_metric_ops must be (metric_value, update_op) tuples, given: {value!r} "
                            f"for key: {key!r}")
        for part in value:
            if isinstance(part, (Tensor, Operation)):
                _same_graph(part, f"eval_metric_ops[{key!r}]")
    return dict(eval_metric_ops)


def _export_outputs(export_outputs):
    if export_outputs is not None and not isinstance(export_outputs, dict):
        raise TypeError(f"export_outputs must be dict, given: {export_outputs!r}")
    return export_outputs


def _scaffold(scaffold):
    scaffold = scaffold or Scaffold()
    if not isinstance(scaffold, Scaffold):
        raise TypeError(f"scaffold must be tg.train.Scaffold. Given: {scaffold!r}")
    return scaffold


class EstimatorSpec(collections.namedtuple("EstimatorSpec", _FIELDS)):
    """The ops and objects an Estimator runs in one mode: model_fn's return value (TF1's tf.estimator.EstimatorSpec).

    `export_outputs` ({signature name: tf.estimator.export ExportOutput}) is checked when export_saved_model uses it.
    """

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None, export_outputs=None,
                training_chief_hooks=None, training_hooks=None, scaffold=None, evaluation_hooks=None,
                prediction_hooks=None):
        return super().__new__(
            cls, mode=mode, predictions=_predictions(predictions, mode), loss=_loss(loss, mode),
            train_op=_train_op(train_op, mode), eval_metric_ops=_eval_metric_ops(eval_metric_ops),
            export_outputs=_export_outputs(export_outputs),
            training_chief_hooks=_hooks(training_chief_hooks, "training_chief_hooks"),
            training_hooks=_hooks(training_hooks, "training_hooks"), scaffold=_scaffold(scaffold),
            evaluation_hooks=_hooks(evaluation_hooks, "evaluation_hooks"),
            prediction_hooks=_hooks(prediction_hooks, "prediction_hooks"))

    def _replace(self, **kwds):
        if "mode" in kwds and self.mode != kwds["mode"]:
            raise ValueError(f"mode of EstimatorSpec cannot be changed (from {self.mode!r} to {kwds['mode']!r})")
        return EstimatorSpec(**dict(self._asdict(), **kwds))
