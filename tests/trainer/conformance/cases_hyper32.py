"""The hyper-parameter family: tf.train's optimizers stepping a float64 variable, compared with TF bit for bit.

TF1 converts a Python number hyper-parameter with convert_to_tensor (a float becomes float32) and casts that to
the variable's dtype, so a float64 variable steps by float32's nearest learning rate; a numpy float64 keeps its
dtype and steps exactly; Adam's beta1_power/beta2_power are variables of their initial value's dtype (float32 for
a Python float, int32 for an int, whatever the variables' dtype). Each case returns the variable after three steps
(and, for Adam, the two powers, whose dtype is compared too), bit for bit where the kernel rounds as TF's.
tf.layers' batch normalization decays its moving statistics by 1 - momentum converted and cast the same way.
"""
import functools

import numpy as np

from .cases import call

OPTIMIZERS = {
    "gradient_descent": lambda tf: tf.train.GradientDescentOptimizer(0.05),
    "gradient_descent_int": lambda tf: tf.train.GradientDescentOptimizer(1),
    "gradient_descent_np_float64": lambda tf: tf.train.GradientDescentOptimizer(np.float64(0.05)),
    "gradient_descent_np_float32": lambda tf: tf.train.GradientDescentOptimizer(np.float32(0.05)),
    "momentum": lambda tf: tf.train.MomentumOptimizer(0.05, 0.9),
    "nesterov": lambda tf: tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
    "adam": lambda tf: tf.train.AdamOptimizer(0.05, 0.8, 0.95, 1e-3),
    "adam_np_float64": lambda tf: tf.train.AdamOptimizer(np.float64(0.05), np.float64(0.8), np.float64(0.95)),
    "adam_int_beta1": lambda tf: tf.train.AdamOptimizer(0.05, 0),
    "adam_callables": lambda tf: tf.train.AdamOptimizer(lambda: 0.05, lambda: 0.8, lambda: 0.95),
    "rmsprop": lambda tf: tf.train.RMSPropOptimizer(0.05, decay=0.8, momentum=0.3, epsilon=1e-3),
    "rmsprop_centered": lambda tf: tf.train.RMSPropOptimizer(0.05, decay=0.8, momentum=0.3, centered=True),
    "adagrad": lambda tf: tf.train.AdagradOptimizer(0.05, initial_accumulator_value=0.3),
    "adadelta": lambda tf: tf.train.AdadeltaOptimizer(0.7, rho=0.8, epsilon=1e-3),
    "ftrl": lambda tf: tf.train.FtrlOptimizer(0.05, l1_regularization_strength=0.01,
                                              l2_regularization_strength=0.1, initial_accumulator_value=0.3),
    "ftrl_shrinkage": lambda tf: tf.train.FtrlOptimizer(0.05, l2_shrinkage_regularization_strength=0.1),
    "proximal_adagrad": lambda tf: tf.train.ProximalAdagradOptimizer(0.05, l1_regularization_strength=0.01,
                                                                     l2_regularization_strength=0.1),
    "proximal_gradient_descent": lambda tf: tf.train.ProximalGradientDescentOptimizer(
        0.05, l1_regularization_strength=0.01, l2_regularization_strength=0.1),
    # TF's two proximal optimizers pass their float32 hyper-parameters uncast (xfails.py); numpy float64s build
    "proximal_adagrad_np_float64": lambda tf: tf.train.ProximalAdagradOptimizer(
        np.float64(0.05), l1_regularization_strength=np.float64(0.01), l2_regularization_strength=np.float64(0.1)),
    "proximal_gradient_descent_np_float64": lambda tf: tf.train.ProximalGradientDescentOptimizer(
        np.float64(0.05), l1_regularization_strength=np.float64(0.01), l2_regularization_strength=np.float64(0.1)),
}
STEPS = 3
# their kernels round differently from TF's in the last bit (TF's Eigen uses rsqrt): compared within float64's
# tolerance, which still parts float32's nearest learning rate from the exact one
NOT_BITWISE = ("adagrad", "adadelta", "proximal_adagrad")


def trained(optimizer, tf):
    """A float64 variable after STEPS updates by constant gradients; Adam's powers after them too."""
    rng = np.random.default_rng(7)
    v = tf.Variable(rng.standard_normal((3, 4)), name="v")
    grads = [rng.standard_normal((3, 4)) for _ in range(STEPS)]
    opt = OPTIMIZERS[optimizer](tf)
    step = None
    for g in grads:
        with tf.control_dependencies([step] if step is not None else []):
            step = opt.apply_gradients([(tf.constant(g), v)])
    with tf.control_dependencies([step]):
        powers = [p for p in sorted(opt.variables(), key=lambda x: x.name) if "power" in p.name]
        return [tf.identity(x) for x in [v, *powers]]


def batch_norm_moved(training, tf):
    """tf.layers' batch normalization of a float64 batch, its moving mean and variance after one update: TF1 casts
    the float32 of 1 - momentum to the variables' dtype, as the optimizers' hyper-parameters."""
    x = tf.constant(np.linspace(-1.0, 2.0, 12).reshape(4, 3))
    flag = True if training == "python_bool" else tf.placeholder_with_default(True, [])
    tf.layers.batch_normalization(x, training=flag, momentum=0.9)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        return [tf.identity(v) for v in tf.global_variables() if "moving" in v.name]


def cases():
    found = {}
    for training in ("python_bool", "tensor"):
        case = call("tuple", {"build": functools.partial(batch_norm_moved, training)})
        case["exact"] = True
        found[f"hyper32/layers.batch_normalization/float64/{training}"] = case
    for optimizer in OPTIMIZERS:
        case = call("tuple", {"build": functools.partial(trained, optimizer)})
        case["exact"] = not optimizer.startswith(NOT_BITWISE)
        found[f"hyper32/train.{optimizer}/float64"] = case
    return found
