"""tensorflow.python.keras.optimizer_v2.optimizer_v2: OptimizerV2, which in TF 1.15 is tf.keras.optimizers.Optimizer
(a subclass writes ringflow's step(), not TF's _resource_apply_dense: see trainer/keras/optimizers.py)."""
from ..optimizers import Optimizer as OptimizerV2  # noqa: F401
