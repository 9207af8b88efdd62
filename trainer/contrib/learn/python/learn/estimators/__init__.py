"""tensorflow.contrib.learn.python.learn.estimators: DNNClassifier and DNNRegressor (dnn), Estimator (estimator),
ModeKeys and ModelFnOps (model_fn), RunConfig (run_config)."""
from . import dnn, estimator, model_fn, run_config  # noqa: F401
