"""tensorflow.contrib.learn.python.learn.estimators: DNNClassifier and DNNRegressor (dnn), LinearClassifier and
LinearRegressor (linear), what they share (canned), Estimator and SKCompat (estimator), ModeKeys and ModelFnOps
(model_fn), RunConfig (run_config)."""
from . import canned, dnn, estimator, linear, model_fn, run_config  # noqa: F401
