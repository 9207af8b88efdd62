"""tensorflow.contrib.learn.python.learn.estimators: Estimator (estimator), ModeKeys and ModelFnOps (model_fn),
RunConfig (run_config)."""
from . import estimator, model_fn, run_config  # noqa: F401
