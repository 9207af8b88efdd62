"""tf.contrib.learn.Estimator: TF1's older Estimator, on tf.estimator.Estimator.

model_fn(features, targets[, mode][, params][, config][, model_dir]) returns ModelFnOps or a tuple (predictions,
loss, train_op); features and targets come positionally, the rest by name, as TF1 calls it. fit, evaluate and
predict take an input_fn or numpy arrays: x (and y) are then fed whole (batch_size=None) or in batches of
batch_size; fit draws them in an order shuffled each epoch, for `steps` steps or until `max_steps`; evaluate and
predict go through them once in order. A one-dimensional x is a column ([n] -> [n, 1]), and y's second dimension
goes when it is 1 ([n, 1] -> [n]), as TF1's feeder makes them. evaluate's `metrics` ({name: MetricSpec or
metric_fn(predictions, labels)}, or {(name, prediction_key): metric_fn}) are added to model_fn's eval_metric_ops.
monitors must be tf.train session run hooks; fit first hands contrib's own monitors (monitors.BaseMonitor:
ValidationMonitor) the estimator. After fit, predict gives model_fn labels as unfed placeholders of the shape fit's
had (TF1's label signature), not None. SKCompat gives an Estimator scikit-learn's fit, score and predict over numpy
arrays (128 rows a batch unless told).
"""
import numpy as np

from ......contrib.layers.feature_column import infer_real_valued_columns
from ......estimator.estimator import Estimator as CoreEstimator
from ......estimator.input_fn import fn_args
from ......estimator.inputs.numpy_io import numpy_input_fn
from ......framework.graph import Graph
from ......ops.core_ops import placeholder
from ......train.session_run_hook import SessionRunHook
from ..metric_spec import MetricSpec
from ..monitors import BaseMonitor
from .model_fn import ModeKeys, ModelFnOps

CALLED_BY_NAME = ("mode", "params", "config", "model_dir")


def _numpy_input_fn(x, y, batch_size, train):
    x = np.asarray(x)
    if x.ndim == 1:
        x = x[:, None]
    if y is not None:
        y = np.asarray(y)
        if y.ndim > 1 and y.shape[1] == 1:  # TF1's feeder drops a label dimension of 1: [n, 1] feeds as [n]
            y = y.reshape(y.shape[:1] + y.shape[2:])
    size = len(x) if batch_size is None else batch_size
    if size <= 0:
        raise ValueError(f"Invalid batch_size {batch_size}: give a positive number of rows, or None for all")
    return numpy_input_fn(x, y, batch_size=size, shuffle=train,
                          num_epochs=None if train else 1)


def _input_fn(x, y, input_fn, batch_size, train, feed_fn=None):
    if feed_fn is not None:
        raise NotImplementedError("feed_fn= is not implemented in ringflow's contrib Estimator: feed through an "
                                  "input_fn (tf.estimator.inputs.numpy_input_fn, tf.data)")
    if input_fn is None:
        if x is None:
            raise ValueError("Either x or input_fn must be provided.")
        return _numpy_input_fn(x, y, batch_size, train)
    if x is not None or y is not None:
        raise ValueError("Can not provide both input_fn and x or y.")
    if batch_size is not None:
        raise ValueError("Can not provide both input_fn and batch_size.")
    return input_fn


def _metric_ops(metrics, features, labels, predictions):
    ops = {}
    for key, metric in (metrics or {}).items():
        name, prediction_key = key if isinstance(key, tuple) else (key, None)
        if isinstance(metric, MetricSpec):
            result = metric.create_metric_ops(features, labels, predictions)
        else:
            chosen = predictions[prediction_key] if prediction_key else predictions
            result = metric(chosen, labels)
        ops[name] = tuple(result) if isinstance(result, (tuple, list)) else (result, result)
    return ops


def _signature(labels):
    """(dtype, shape with any batch size) of labels, or a dict of them."""
    if isinstance(labels, dict):
        return {key: _signature(value) for key, value in labels.items()}
    dims = labels.shape.as_list() if labels.shape.ndims is not None else None
    return labels.dtype, None if dims is None else [None] + dims[1:]


def _placeholders(signature):
    """Unfed placeholders in the labels' image: TF1's contrib Estimator hands INFER-mode model_fns labels shaped as
    fit's, so a model_fn that builds its loss in every mode still builds."""
    if isinstance(signature, dict):
        return {key: _placeholders(value) for key, value in signature.items()}
    return placeholder(*signature)


class Estimator:
    """Fits, evaluates and predicts with an old-style model_fn; checkpoints in model_dir as tf.estimator does."""

    def __init__(self, model_fn=None, model_dir=None, config=None, params=None, feature_engineering_fn=None):
        if model_fn is None:
            raise ValueError("model_fn must be provided to Estimator.")
        args = fn_args(model_fn)
        if params is not None and "params" not in args:
            raise ValueError(f"Estimator's model_fn ({model_fn!r}) does not have a params argument, but params "
                             f"({params!r}) were passed to the Estimator's constructor.")
        self._model_fn, self._params, self._engineer = model_fn, params, feature_engineering_fn
        self._metrics = self._labels_info = None
        self._core = CoreEstimator(self._core_model_fn, model_dir=model_dir, config=config)

    model_dir = property(lambda self: self._core.model_dir)
    config = property(lambda self: self._core.config)
    params = property(lambda self: self._params)
    model_fn = property(lambda self: self._model_fn)

    def _model_fn_ops(self, features, labels, mode):
        if self._engineer is not None:
            features, labels = self._engineer(features, labels)
        given = {"mode": mode, "params": self._params, "config": self.config, "model_dir": self.model_dir}
        args = fn_args(self._model_fn)
        result = self._model_fn(features, labels, **{name: given[name] for name in CALLED_BY_NAME if name in args})
        if isinstance(result, ModelFnOps):
            return result
        if not isinstance(result, (tuple, list)) or len(result) != 3:
            raise ValueError(f"Unrecognized value returned by model_fn ({result!r}): return ModelFnOps or "
                             "(predictions, loss, train_op)")
        predictions, loss, train_op = result
        return ModelFnOps(mode, predictions=predictions, loss=loss, train_op=train_op)

    def _core_model_fn(self, features, labels, mode):
        if mode == ModeKeys.TRAIN and labels is not None:
            self._labels_info = _signature(labels)
        elif mode == ModeKeys.INFER and labels is None and self._labels_info is not None:
            labels = _placeholders(self._labels_info)
        ops = self._model_fn_ops(features, labels, mode)
        spec = ops.estimator_spec()
        if mode == ModeKeys.EVAL and self._metrics:
            extra = _metric_ops(self._metrics, features, labels, spec.predictions)
            spec = spec._replace(eval_metric_ops=dict(spec.eval_metric_ops, **extra))
        return spec

    def fit(self, x=None, y=None, input_fn=None, steps=None, batch_size=None, monitors=None, max_steps=None):
        """Train on input_fn (or x, y) for `steps` more steps or up to global step `max_steps`; returns self."""
        hooks = list(monitors or [])
        for monitor in hooks:
            if not isinstance(monitor, SessionRunHook):
                raise NotImplementedError(f"monitors=[{monitor!r}]: contrib.learn's monitors are not in ringflow; "
                                          "give tf.train session run hooks (tf.train.LoggingTensorHook, ...) and "
                                          "call evaluate between fit calls to validate")
            if isinstance(monitor, BaseMonitor):
                monitor.set_estimator(self)
        if steps is None and max_steps is None and input_fn is None:
            raise ValueError("fit(x=, y=) without steps or max_steps would train forever on the repeated arrays: "
                             "give steps=")
        self._core.train(_input_fn(x, y, input_fn, batch_size, train=True), hooks=hooks, steps=steps,
                         max_steps=max_steps)
        return self

    def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None, metrics=None,
                 name=None, checkpoint_path=None, hooks=None, log_progress=True):
        """{metric name: value} of the latest (or given) checkpoint, with 'loss' and 'global_step'."""
        self._metrics = metrics  # read by _core_model_fn while the core Estimator builds the EVAL graph
        return self._core.evaluate(_input_fn(x, y, input_fn, batch_size, False, feed_fn), steps=steps, hooks=hooks,
                                   checkpoint_path=checkpoint_path, name=name)

    def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True,
                iterate_batches=False):
        """The predictions, one example (iterate_batches: one batch) at a time, or all at once (as_iterable=False:
        a dict of arrays, or one array)."""
        results = self._core.predict(_input_fn(x, None, input_fn, batch_size, train=False), predict_keys=outputs,
                                     yield_single_examples=as_iterable and not iterate_batches)
        if as_iterable:
            return results
        batches = list(results)
        if batches and isinstance(batches[0], dict):
            return {key: np.concatenate([batch[key] for batch in batches]) for key in batches[0]}
        return np.concatenate(batches) if batches else np.array([])

    def get_variable_names(self):
        """The names of the variables in the latest checkpoint."""
        return self._core.get_variable_names()

    def get_variable_value(self, name):
        """The value of variable `name` in the latest checkpoint."""
        return self._core.get_variable_value(name)


def infer_real_valued_columns_from_input_fn(input_fn):
    """The real-valued feature columns of the features input_fn returns (built in a graph of their own)."""
    with Graph().as_default():
        result = input_fn()
        return infer_real_valued_columns(result[0] if isinstance(result, tuple) else result)


def infer_real_valued_columns_from_input(x):
    """The real-valued feature columns of numpy features x ([n] reads as [n, 1], as fit feeds it)."""
    return infer_real_valued_columns_from_input_fn(_numpy_input_fn(x, None, None, train=False))


class SKCompat:
    """scikit-learn's fit/score/predict over numpy arrays for a contrib Estimator, in batches of batch_size."""

    def __init__(self, estimator):
        self._estimator = estimator

    def fit(self, x, y, batch_size=128, steps=None, max_steps=None, monitors=None):
        """Train on x, y (shuffled each epoch) for `steps` steps or up to `max_steps`; returns self."""
        self._estimator.fit(x=x, y=y, batch_size=batch_size, steps=steps, max_steps=max_steps, monitors=monitors)
        return self

    def score(self, x, y, batch_size=128, steps=None, metrics=None, name=None):
        """evaluate's {metric: value}, with 'global_step', over x, y once."""
        if metrics is not None and not isinstance(metrics, dict):
            raise ValueError(f"Metrics argument should be None or dict. Got {metrics!r}.")
        return self._estimator.evaluate(x=x, y=y, batch_size=batch_size, steps=steps, metrics=metrics, name=name)

    def predict(self, x, batch_size=128, outputs=None):
        """All predictions at once: an array, or a dict of arrays (the model_fn's own, not a canned model's
        classes-only default)."""
        return Estimator.predict(self._estimator, x=x, batch_size=batch_size, outputs=outputs, as_iterable=False)
