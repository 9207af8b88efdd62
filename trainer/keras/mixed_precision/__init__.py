"""tf.keras.mixed_precision: TF 1.15's experimental API (experimental.Policy, global_policy, set_policy,
LossScaleOptimizer) as it behaves in graph mode on float32 CPUs."""
from . import experimental

__all__ = ["experimental"]
