"""tf.contrib.learn: TF1's deprecated high-level API. ringflow keeps its data sets (datasets: mnist, iris, the CSV
loaders and downloader), its text preprocessing, ModeKeys, RunConfig, Estimator with ModelFnOps and MetricSpec
(on tf.estimator.Estimator) and SKCompat, the canned DNN and linear classifiers and regressors,
monitors.ValidationMonitor (a session run hook) and infer_real_valued_columns_from_input(_fn); the combined
DNN-linear models, Experiment and the other monitors fail naming their tf.estimator replacement."""
from ...unsupported import missing_names
from .python.learn import datasets, estimators, monitors, preprocessing  # noqa: F401
from .python.learn.estimators.dnn import DNNClassifier, DNNRegressor
from .python.learn.estimators.estimator import (Estimator, SKCompat, infer_real_valued_columns_from_input,
                                                infer_real_valued_columns_from_input_fn)
from .python.learn.estimators.linear import LinearClassifier, LinearRegressor
from .python.learn.estimators.model_fn import ModeKeys, ModelFnOps
from .python.learn.estimators.run_config import RunConfig
from .python.learn.metric_spec import MetricSpec

__all__ = ["DNNClassifier", "DNNRegressor", "Estimator", "LinearClassifier", "LinearRegressor", "MetricSpec",
           "ModeKeys", "ModelFnOps", "RunConfig", "SKCompat", "datasets", "infer_real_valued_columns_from_input",
           "infer_real_valued_columns_from_input_fn", "monitors", "preprocessing"]

_CANNED = "use tf.estimator.{0} (feature_columns as here; input_fn instead of x=, y=)"
_LOOP = ("use tf.estimator.train_and_evaluate(estimator, tf.estimator.TrainSpec(...), tf.estimator.EvalSpec(...)), "
         "or call estimator.train and estimator.evaluate in turn")
_REASONS = {
    **{name: _CANNED.format(name) for name in ("DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor")},
    "Experiment": _LOOP, "learn_runner": _LOOP,
}

__getattr__ = missing_names(__name__, have=f"tf.contrib.learn here has {', '.join(__all__)}", reasons=_REASONS)
