"""tensorflow.contrib.learn.python.learn.estimators: ModeKeys (model_fn) and RunConfig (run_config)."""
from . import model_fn, run_config  # noqa: F401
