"""tf.contrib.learn: TF1's deprecated high-level API. ringflow keeps its data sets (datasets: mnist, iris, the CSV
loaders and downloader), its text preprocessing, ModeKeys, RunConfig, and Estimator with ModelFnOps and MetricSpec
(on tf.estimator.Estimator); the canned DNN and linear models, Experiment and the monitors fail naming their
tf.estimator replacement."""
from ...unsupported import missing_names
from .python.learn import datasets, estimators, preprocessing  # noqa: F401
from .python.learn.estimators.estimator import Estimator
from .python.learn.estimators.model_fn import ModeKeys, ModelFnOps
from .python.learn.estimators.run_config import RunConfig
from .python.learn.metric_spec import MetricSpec

__all__ = ["Estimator", "MetricSpec", "ModeKeys", "ModelFnOps", "RunConfig", "datasets", "preprocessing"]

_CANNED = "use tf.estimator.{0} (feature_columns, hidden_units, n_classes as here; input_fn instead of x=, y=)"
_LOOP = ("use tf.estimator.train_and_evaluate(estimator, tf.estimator.TrainSpec(...), tf.estimator.EvalSpec(...)), "
         "or call estimator.train and estimator.evaluate in turn")
_REASONS = {
    "SKCompat": "call tf.contrib.learn.Estimator's own fit(x=, y=, batch_size=, steps=) and predict(x=)",
    **{name: _CANNED.format(name) for name in ("DNNClassifier", "DNNRegressor", "LinearClassifier",
                                               "LinearRegressor", "DNNLinearCombinedClassifier",
                                               "DNNLinearCombinedRegressor")},
    "Experiment": _LOOP, "learn_runner": _LOOP,
    "monitors": "contrib.learn's monitors became tf.train's session run hooks: pass hooks (tf.train.LoggingTensorHook, "
                "tf.train.StopAtStepHook, ...) as fit's monitors or tf.estimator's hooks; to validate, call evaluate "
                "between fit calls",
    "infer_real_valued_columns_from_input": "declare the columns: tf.feature_column.numeric_column('x', shape=[n])",
}

__getattr__ = missing_names(__name__, have=f"tf.contrib.learn here has {', '.join(__all__)}", reasons=_REASONS)
