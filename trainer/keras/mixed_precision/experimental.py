"""tf.keras.mixed_precision.experimental as TF 1.15 has it in graph mode (TF1 behaviour), where ringflow computes
every layer in float32 on the CPU:

- Policy(name, loss_scale) describes compute and variable dtypes: 'infer' (a layer takes its inputs' dtype),
  'float32', 'float64'; the float16 and bfloat16 policies ('mixed_float16', ...) are refused, since ringflow's
  Keras layers neither compute nor keep variables in them;
- global_policy() is Policy('infer'), TF 1.15's in TF1 behaviour, and set_policy raises as TF 1.15 does there;
- LossScaleOptimizer(optimizer, loss_scale) multiplies the loss by a fixed scale and divides the gradients by it
  before its optimizer applies them; 'dynamic' loss scaling (growing the scale, skipping steps whose gradients
  overflow) is refused: float32 gradients do not overflow where float16 ones do.
"""
import numbers

from ...framework import dtypes
from ...ops.core_ops import constant
from ..optimizer_v2.optimizer_v2 import OptimizerV2
from .. import optimizers

USE_DEFAULT = "USE_DEFAULT"
HALF = ("float16", "bfloat16")


def fixed_scale(loss_scale, what):
    """A fixed loss scale as a float (None stays None), refusing dynamic scaling."""
    if loss_scale is None or isinstance(loss_scale, numbers.Real) and not isinstance(loss_scale, bool):
        return None if loss_scale is None else float(loss_scale)
    if loss_scale == "dynamic":
        raise ValueError(f"{what}: loss_scale='dynamic' is not available in ringflow (it grows the scale and skips "
                         "the steps whose float16 gradients overflow; ringflow computes in float32): give a fixed "
                         "loss scale, a number, or none")
    raise ValueError(f"{what}: Invalid argument for loss_scale: {loss_scale!r}; give a number (or 'dynamic' in "
                     "TensorFlow)")


class Policy:
    """The dtype policy `name` of Keras layers: compute_dtype, variable_dtype, loss_scale."""

    def __init__(self, name, loss_scale=USE_DEFAULT):
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, but got: {name!r}")
        if name.startswith("mixed_") or name in HALF:
            raise ValueError(f"Policy {name!r} is not available in ringflow: its Keras layers compute and keep their "
                             "variables in float32 on the CPU; use Policy('float32') or Policy('infer')")
        if name == "infer":
            dtype = None
        else:
            try:
                dtype = dtypes.as_dtype(name).name
            except (TypeError, ValueError, KeyError):
                raise ValueError(f"Cannot convert value {name!r} to a mixed precision Policy. Valid policies "
                                 "include 'mixed_float16', 'mixed_bfloat16', and the name of any dtype such as "
                                 "'float32'.") from None
        self._name, self._compute_dtype = name, dtype
        self._loss_scale = fixed_scale(None if loss_scale == USE_DEFAULT else loss_scale, f"Policy({name!r})")

    name = property(lambda self: self._name)
    compute_dtype = property(lambda self: self._compute_dtype)
    variable_dtype = property(lambda self: self._compute_dtype)
    loss_scale = property(lambda self: self._loss_scale)

    @property
    def should_cast_variables(self):
        return False  # compute and variable dtypes are one

    def __repr__(self):
        return f'<Policy "{self._name}", loss_scale={self._loss_scale}>'


def global_policy():
    """The policy of layers made without a dtype: 'infer' in TF 1.15's TF1 behaviour."""
    return Policy("infer")


def set_policy(policy):
    """Refused, as TF 1.15 refuses it outside TF2 behaviour."""
    raise ValueError("The global policy can only be set in TensorFlow 2 (TF 1.15 refuses it in graph mode, as "
                     "ringflow does): give a layer its dtype instead")


class LossScaleOptimizer(OptimizerV2):
    """`optimizer` on the loss times loss_scale, its gradients divided by loss_scale (get_scaled_loss,
    get_unscaled_gradients); its iterations, weights and hyper-parameters are the wrapped optimizer's."""

    def __init__(self, optimizer, loss_scale):
        if not isinstance(optimizer, OptimizerV2):
            raise ValueError(f'"optimizer" must be an instance of OptimizerV2, but got: {optimizer!r}')
        if getattr(optimizer, "clipnorm", None) is not None or getattr(optimizer, "clipvalue", None) is not None:
            raise ValueError("LossScaleOptimizer does not support wrapping optimizers with a clipnorm or clipvalue. "
                             f"Optimizer {optimizer!r} has clipnorm {getattr(optimizer, 'clipnorm', None)} and "
                             f"clipvalue {getattr(optimizer, 'clipvalue', None)}")
        super().__init__(name="LossScaleOptimizer")
        self._optimizer = optimizer
        self._scale = fixed_scale(loss_scale, "LossScaleOptimizer")
        if self._scale is None:
            raise ValueError("LossScaleOptimizer needs a loss_scale: give a number")

    @property
    def loss_scale(self):
        return self._scale

    def get_scaled_loss(self, loss):
        return loss * constant(self._scale, dtype=loss.dtype)

    def get_unscaled_gradients(self, grads):
        return [None if g is None else g * constant(1.0 / self._scale, dtype=g.dtype) for g in grads]

    def get_gradients(self, loss, params):
        return self.get_unscaled_gradients(self._optimizer.get_gradients(self.get_scaled_loss(loss), params))

    def apply_gradients(self, grads_and_vars, name=None):
        return self._optimizer.apply_gradients(grads_and_vars, name=name)

    @property
    def iterations(self):
        return self._optimizer.iterations

    @property
    def weights(self):
        return self._optimizer.weights

    def get_weights(self):
        return self._optimizer.get_weights()

    def set_weights(self, weights):
        self._optimizer.set_weights(weights)

    def __getattr__(self, name):  # the wrapped optimizer's hyper-parameters (lr, beta_1, ...)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._optimizer, name)

    def get_config(self):
        return {"optimizer": optimizers.serialize(self._optimizer), "loss_scale": self._scale}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        return cls(optimizers.deserialize(config.pop("optimizer"), custom_objects=custom_objects), **config)
