"""tf.contrib.learn: TF1's deprecated high-level API. ringflow keeps its data sets (datasets: mnist, iris, the CSV
loaders and downloader), its text preprocessing, ModeKeys and RunConfig; its estimators and their training loop
(Estimator, the canned DNN and linear models, Experiment, monitors, MetricSpec) fail naming their tf.estimator
replacement."""
from ...unsupported import missing_names
from .python.learn import datasets, estimators, preprocessing  # noqa: F401
from .python.learn.estimators.model_fn import ModeKeys
from .python.learn.estimators.run_config import RunConfig

__all__ = ["ModeKeys", "RunConfig", "datasets", "preprocessing"]

_ESTIMATOR = ("contrib.learn's estimators are deprecated in TF1: write model_fn(features, labels, mode, params) "
              "returning tf.estimator.EstimatorSpec and use tf.estimator.Estimator; pass numpy arrays through "
              "tf.estimator.inputs.numpy_input_fn")
_CANNED = "use tf.estimator.{0} (feature_columns, hidden_units, n_classes as here; input_fn instead of x=, y=)"
_LOOP = ("use tf.estimator.train_and_evaluate(estimator, tf.estimator.TrainSpec(...), tf.estimator.EvalSpec(...)), "
         "or call estimator.train and estimator.evaluate in turn")
_REASONS = {
    "Estimator": _ESTIMATOR, "ModelFnOps": _ESTIMATOR + " (EstimatorSpec is ModelFnOps' successor)",
    "SKCompat": _ESTIMATOR,
    **{name: _CANNED.format(name) for name in ("DNNClassifier", "DNNRegressor", "LinearClassifier",
                                               "LinearRegressor", "DNNLinearCombinedClassifier",
                                               "DNNLinearCombinedRegressor")},
    "Experiment": _LOOP, "learn_runner": _LOOP,
    "monitors": "contrib.learn's monitors are tf.train's session run hooks: pass hooks to tf.estimator's train and "
                "evaluate (tf.train.LoggingTensorHook, tf.train.StopAtStepHook, ...); for validation, call evaluate between "
                "train calls",
    "MetricSpec": "give tf.estimator.EstimatorSpec(eval_metric_ops={name: tf.metrics.accuracy(labels, "
                  "predictions)}) in model_fn",
    "infer_real_valued_columns_from_input": "declare the columns: tf.feature_column.numeric_column('x', shape=[n])",
}

__getattr__ = missing_names(__name__, have=f"tf.contrib.learn here has {', '.join(__all__)}", reasons=_REASONS)
