"""tf.contrib.layers.optimize_loss: a loss, an optimizer (by name, class, instance or factory) and options in,
one train tensor out (the loss, computed after the update ops and the gradient step)."""
from ... import summary, train
from ...framework.tensor import Tensor
from ...framework.graph_wrappers import control_dependencies
from ...framework.graph import get_default_graph
from ...framework.graph_keys import GraphKeys
from ...ops.initializers import constant_initializer
from ...ops.clip_ops import clip_by_global_norm, global_norm
from ...ops.core_ops import constant, convert_to_tensor, identity
from ...ops.random_ops import random_normal
from ...ops.scopes import variable_scope
from ...ops.variables import get_variable, trainable_variables

OPTIMIZER_CLS_NAMES = {
    "Adagrad": train.AdagradOptimizer,
    "Adam": train.AdamOptimizer,
    "Ftrl": train.FtrlOptimizer,
    "Momentum": lambda learning_rate: train.MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": train.RMSPropOptimizer,
    "SGD": train.GradientDescentOptimizer,
}
OPTIMIZER_SUMMARIES = ["learning_rate", "loss", "gradients", "gradient_norm", "global_gradient_norm"]
DEFAULT_SUMMARIES = ["loss", "learning_rate", "global_gradient_norm"]


def _with_dependencies(dependencies, tensor):
    with control_dependencies(list(dependencies)):
        return identity(tensor)


def _learning_rate(learning_rate):
    if learning_rate is None:
        return None
    if isinstance(learning_rate, Tensor) and learning_rate.shape.ndims == 0:
        return learning_rate
    if isinstance(learning_rate, float):
        if learning_rate < 0.0:
            raise ValueError(f"Invalid learning_rate {learning_rate!r}: it must be >= 0")
        return get_variable("learning_rate", [], trainable=False, initializer=constant_initializer(learning_rate))
    raise ValueError(f"Learning rate should be 0d Tensor or float. Got {learning_rate!r} of type "
                     f"{type(learning_rate).__name__}")


def _optimizer(optimizer, lr, learning_rate):
    if isinstance(optimizer, str):
        if lr is None:
            raise ValueError(f"Learning rate is None, but should be specified if optimizer is string ({optimizer})")
        if optimizer not in OPTIMIZER_CLS_NAMES:
            raise ValueError(f"Optimizer name should be one of [{', '.join(OPTIMIZER_CLS_NAMES)}], you provided "
                             f"{optimizer!r}")
        return OPTIMIZER_CLS_NAMES[optimizer](learning_rate=lr)
    if isinstance(optimizer, type) and issubclass(optimizer, train.Optimizer):
        if lr is None:
            raise ValueError(f"Learning rate is None, but should be specified if optimizer is class ({optimizer})")
        return optimizer(learning_rate=lr)
    if isinstance(optimizer, train.Optimizer):
        return optimizer
    if callable(optimizer):
        opt = optimizer(lr) if learning_rate is not None else optimizer()
        if not isinstance(opt, train.Optimizer):
            raise ValueError(f"Unrecognized optimizer: function should return subclass of Optimizer. Got {opt!r}")
        return opt
    raise ValueError("Unrecognized optimizer: should be string, subclass of Optimizer, instance of subclass of "
                     f"Optimizer or function with one argument. Got {optimizer!r}")


def _multiply(gradients, multipliers):
    out = []
    for grad, var in gradients:
        key = var if var in multipliers else var.name
        if grad is not None and key in multipliers:
            grad = grad * constant(multipliers[key], dtype=grad.dtype)
        out.append((grad, var))
    return out


def _noisy(gradients, scale):
    return [(None if g is None else g + random_normal(g.shape.as_list(), dtype=g.dtype) * scale, v)
            for g, v in gradients]


def _clipped(gradients, clip_gradients):
    if isinstance(clip_gradients, float):
        grads, variables = zip(*gradients)
        return list(zip(clip_by_global_norm(list(grads), clip_gradients)[0], variables))
    if callable(clip_gradients):
        return clip_gradients(gradients)
    raise ValueError(f"Unknown type {type(clip_gradients).__name__} for clip_gradients: pass a float or a callable")


def optimize_loss(loss, global_step, learning_rate, optimizer, gradient_noise_scale=None, gradient_multipliers=None,
                  clip_gradients=None, learning_rate_decay_fn=None, update_ops=None, variables=None, name=None,
                  summaries=None, colocate_gradients_with_ops=False, increment_global_step=True):
    """The loss after one optimizer step on `variables` (default: the trainable ones), in scope name or
    OptimizeLoss; a float learning_rate becomes the non-trainable variable <scope>/learning_rate."""
    loss = convert_to_tensor(loss)
    if loss.shape.ndims != 0:
        raise ValueError(f"Expected scalar shape for loss {loss.name!r}, saw shape: {loss.shape}")
    if global_step is None:
        global_step = train.get_global_step()
    elif not (isinstance(global_step, Tensor) and global_step.dtype.kind in "iu" and global_step.shape.ndims == 0):
        raise TypeError(f"Existing global_step {global_step!r} must be a scalar integer Variable or Tensor")
    summaries = DEFAULT_SUMMARIES if summaries is None else list(summaries)
    for name_ in summaries:
        if name_ not in OPTIMIZER_SUMMARIES:
            raise ValueError(f"Summaries should be one of [{', '.join(OPTIMIZER_SUMMARIES)}], you provided "
                             f"{name_!r}")
    with variable_scope(name, default_name="OptimizeLoss", values=[loss, global_step]):
        if update_ops is None:
            update_ops = get_default_graph().get_collection(GraphKeys.UPDATE_OPS)
        if update_ops:
            loss = _with_dependencies(update_ops, loss)
        lr = _learning_rate(learning_rate)
        if learning_rate is not None and learning_rate_decay_fn is not None:
            if global_step is None:
                raise ValueError("global_step is required for learning_rate_decay_fn.")
            lr = learning_rate_decay_fn(lr, global_step)
        if lr is not None and "learning_rate" in summaries:
            summary.scalar("learning_rate", lr)
        opt = _optimizer(optimizer, lr, learning_rate)
        gradients = opt.compute_gradients(loss, variables if variables is not None else trainable_variables())
        if gradient_noise_scale is not None:
            gradients = _noisy(gradients, gradient_noise_scale)
        if gradient_multipliers is not None:
            gradients = _multiply(gradients, gradient_multipliers)
            if not gradients:
                raise ValueError("Empty list of (gradient, var) pairs encountered: check gradient_multipliers")
        norms = "global_gradient_norm" in summaries or "gradient_norm" in summaries
        if norms:
            summary.scalar("global_norm/gradient_norm", global_norm([g for g, _ in gradients]))
        if clip_gradients is not None:
            gradients = _clipped(gradients, clip_gradients)
        if "loss" in summaries:
            summary.scalar("loss", loss)
        for grad, var in gradients:
            if grad is not None:
                var_name = var.name.replace(":", "_")
                if "gradients" in summaries:
                    summary.histogram(f"gradients/{var_name}", grad)
                if "gradient_norm" in summaries:
                    summary.scalar(f"gradient_norm/{var_name}", global_norm([grad]))
        if clip_gradients is not None and norms:
            summary.scalar("global_norm/clipped_gradient_norm", global_norm([g for g, _ in gradients]))
        step = opt.apply_gradients(gradients, global_step=global_step if increment_global_step else None,
                                   name="train")
        return _with_dependencies([step], loss)
