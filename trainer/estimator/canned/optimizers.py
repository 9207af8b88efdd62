"""The optimizer a canned estimator takes: a name, an Optimizer, or a callable returning one (TF1's rule)."""
from ...train.adagrad import AdagradOptimizer
from ...train.adam import AdamOptimizer
from ...train.ftrl import FtrlOptimizer
from ...train.gradient_descent import GradientDescentOptimizer
from ...train.optimizer import Optimizer
from ...train.rmsprop import RMSPropOptimizer

OPTIMIZER_CLS_NAMES = {"Adagrad": AdagradOptimizer, "Adam": AdamOptimizer, "Ftrl": FtrlOptimizer,
                       "RMSProp": RMSPropOptimizer, "SGD": GradientDescentOptimizer}


OPTIMIZER_METHODS = ("compute_gradients", "apply_gradients", "minimize")


def get_optimizer_instance(opt, learning_rate=None):
    """`opt` as an Optimizer: a name in OPTIMIZER_CLS_NAMES made with `learning_rate`, a callable called with no
    arguments, or an Optimizer as given: a tf.train one, or a wrapper with the optimizer's methods
    (tg.DistributedOptimizer, Horovod's), which TF1 would refuse but ringflow's data parallelism needs."""
    if isinstance(opt, str):
        if opt not in OPTIMIZER_CLS_NAMES:
            raise ValueError(f"Unsupported optimizer name: {opt}. Supported names are: "
                             f"{tuple(sorted(OPTIMIZER_CLS_NAMES))}")
        if learning_rate is None:
            raise ValueError("learning_rate must be specified when opt is string.")
        return OPTIMIZER_CLS_NAMES[opt](learning_rate=learning_rate)
    if callable(opt) and not _optimizer_like(opt):
        opt = opt()
    if not _optimizer_like(opt):
        raise ValueError(f"The given object is not an Optimizer instance. Given: {opt!r}")
    return opt


def _optimizer_like(opt):
    return isinstance(opt, Optimizer) or all(callable(getattr(opt, name, None)) for name in OPTIMIZER_METHODS)
