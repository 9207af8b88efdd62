"""tf.train.experimental: loss scaling for float16 training. TF's automatic float16 graph rewrite (Grappler's
auto_mixed_precision) and its object-based PythonState are not in ringflow."""
from .loss_scale import DynamicLossScale, FixedLossScale, LossScale
from .loss_scale_optimizer import MixedPrecisionLossScaleOptimizer
from ..unsupported import missing_names

__all__ = ["DynamicLossScale", "FixedLossScale", "LossScale", "MixedPrecisionLossScaleOptimizer"]

__getattr__ = missing_names(__name__, have="tf.train.experimental has the loss scales and "
                                           "MixedPrecisionLossScaleOptimizer: build the model in float16 yourself",
                            reasons={name: "the automatic float16 graph rewrite (Grappler's auto_mixed_precision)"
                                     for name in ("enable_mixed_precision_graph_rewrite",
                                                  "disable_mixed_precision_graph_rewrite")})
