"""tf.keras.optimizers as TF 1.15 makes them (its OptimizerV2 formulas and defaults: epsilon 1e-7, learning rate
0.01 for SGD, 0.001 for the rest), built as graph ops by get_updates(loss, params) or apply_gradients.

Their variables are made lazily, as TF 1.15's (optimizer_v2/optimizer_v2.py says when); `lr` (alias
`learning_rate`) and the other hyper-parameters are read and set with K.get_value/K.set_value, and the learning
rate at step t is lr / (1 + decay * t). A tf.train optimizer passed to compile is wrapped in TFOptimizer.
"""
from ..framework.graph import get_default_graph
from ..framework.tensor import Tensor
from ..ops.math_ops import where
from ..ops.variables import Variable
from ..train.optimizer import Optimizer as TrainOptimizer
from . import backend as K
from .optimizer_v2 import learning_rate_schedule as schedules  # noqa: F401  (tf.keras.optimizers.schedules)
from .optimizer_v2.optimizer_v2 import OptimizerV2 as Optimizer


class SGD(Optimizer):
    """v = momentum * v - lr * g; p += v (nesterov: p += momentum * v - lr * g)."""

    defaults = {"learning_rate": 0.01, "momentum": 0.0, "nesterov": False}
    hypers = ("learning_rate", "decay", "momentum")

    @property
    def slots(self):
        return ("momentum",) if self._momentum else ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        momentum = self._hyper["momentum"]
        self._momentum = callable(momentum) or isinstance(momentum, Tensor) or momentum > 0  # as TF decides

    def step(self, p, g, slots, lr, t):
        if not slots:
            return p - lr * g, []
        m = self._get_hyper("momentum", p.dtype)
        v = m * slots[0] - lr * g
        return (p + m * v - lr * g if self.nesterov else p + v), [v]


class Adam(Optimizer):
    """m, v moving averages of g and g**2; p -= lr * sqrt(1 - beta_2**t) / (1 - beta_1**t) * m / (sqrt(v) + eps)."""

    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7, "amsgrad": False}
    hypers = ("learning_rate", "decay", "beta_1", "beta_2")

    @property
    def slots(self):
        return ("m", "v", "vhat") if self.amsgrad else ("m", "v")

    def step(self, p, g, slots, lr, t):
        b1, b2, eps = self._get_hyper("beta_1", p.dtype), self._get_hyper("beta_2", p.dtype), self.epsilon
        lr_t = lr * K.sqrt(1.0 - K.pow(b2, t)) / (1.0 - K.pow(b1, t))
        m = b1 * slots[0] + (1.0 - b1) * g
        v = b2 * slots[1] + (1.0 - b2) * K.square(g)
        if self.amsgrad:
            vhat = K.maximum(slots[2], v)
            return p - lr_t * m / (K.sqrt(vhat) + eps), [m, v, vhat]
        return p - lr_t * m / (K.sqrt(v) + eps), [m, v]


class RMSprop(Optimizer):
    """ms = rho * ms + (1 - rho) * g**2; p -= lr * g / (sqrt(ms) + eps) (with momentum, TF's
    mom = momentum * mom + lr * g / sqrt(ms + eps); p -= mom; centered: ms less the squared mean gradient mg)."""

    defaults = {"learning_rate": 0.001, "rho": 0.9, "momentum": 0.0, "epsilon": 1e-7, "centered": False}
    hypers = ("learning_rate", "decay", "rho", "momentum")

    @property
    def slots(self):
        return ("rms",) + (("momentum",) if self._momentum else ()) + (("mg",) if self.centered else ())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        momentum = self._hyper["momentum"]
        self._momentum = callable(momentum) or isinstance(momentum, Tensor) or momentum > 0

    def step(self, p, g, slots, lr, t):
        rho, eps = self._get_hyper("rho", p.dtype), self.epsilon
        named = dict(zip(self.slots, slots))
        ms = rho * named["rms"] + (1.0 - rho) * K.square(g)
        news = [ms]
        denom = ms
        if self.centered:
            mg = rho * named["mg"] + (1.0 - rho) * g
            denom = ms - K.square(mg)
        if self._momentum:
            moment = self._get_hyper("momentum", p.dtype) * named["momentum"] + lr * g / K.sqrt(denom + eps)
            new_p, news = p - moment, news + [moment]
        else:
            new_p = p - lr * g / (K.sqrt(denom) + eps)
        return new_p, news + ([mg] if self.centered else [])


class Adagrad(Optimizer):
    """acc += g**2; p -= lr * g / (sqrt(acc) + eps), acc starting at initial_accumulator_value."""

    defaults = {"learning_rate": 0.001, "initial_accumulator_value": 0.1, "epsilon": 1e-7}
    hypers = ("learning_rate", "decay")
    slots = ("accumulator",)

    def slot_initial(self, name):
        return self.initial_accumulator_value

    def step(self, p, g, slots, lr, t):
        acc = slots[0] + K.square(g)
        return p - lr * g / (K.sqrt(acc) + self.epsilon), [acc]


class Adadelta(Optimizer):
    """Zeiler's Adadelta with TF's epsilon inside both square roots, scaled by lr."""

    defaults = {"learning_rate": 0.001, "rho": 0.95, "epsilon": 1e-7}
    hypers = ("learning_rate", "decay", "rho")
    slots = ("accum_grad", "accum_var")

    def step(self, p, g, slots, lr, t):
        rho, eps = self._get_hyper("rho", p.dtype), self.epsilon
        accum = rho * slots[0] + (1.0 - rho) * K.square(g)
        update = K.sqrt(slots[1] + eps) / K.sqrt(accum + eps) * g
        accum_update = rho * slots[1] + (1.0 - rho) * K.square(update)
        return p - lr * update, [accum, accum_update]


class Adamax(Optimizer):
    """Adam on the infinity norm: u = max(beta_2 * u, |g|); p -= lr / (1 - beta_1**t) * m / (u + eps)."""

    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}
    hypers = ("learning_rate", "decay", "beta_1", "beta_2")
    slots = ("m", "v")

    def step(self, p, g, slots, lr, t):
        b1, b2 = self._get_hyper("beta_1", p.dtype), self._get_hyper("beta_2", p.dtype)
        m = b1 * slots[0] + (1.0 - b1) * g
        u = K.maximum(b2 * slots[1], K.abs(g))
        return p - lr / (1.0 - K.pow(b1, t)) * m / (u + self.epsilon), [m, u]


class Nadam(Optimizer):
    """Adam with Nesterov momentum and Keras' momentum schedule (0.96 ** (decay * t)); decay (Keras'
    schedule_decay, 0.004) sets the schedule, not the learning rate, as in TF."""

    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}
    hypers = ("learning_rate", "decay", "beta_1", "beta_2")
    slots = ("m", "v")

    def __init__(self, *args, **kwargs):
        schedule_decay = kwargs.pop("schedule_decay", 0.004)
        kwargs.setdefault("decay", schedule_decay)
        super().__init__(*args, **kwargs)
        self._m_cache = None

    def _create_slots(self, var_list):
        if self._m_cache is None:
            self._m_cache = self.add_weight("momentum_cache", 1.0)
            self._weights.append(self._m_cache)
        super()._create_slots(var_list)

    def _decayed_lr(self, dtype):
        return self._get_hyper("learning_rate", dtype)

    def _prepare(self, var_list):
        t = K.cast(self.iterations, K.floatx()) + 1.0
        b1 = self._get_hyper("beta_1", K.floatx())
        self._cache_t = b1 * (1.0 - 0.5 * K.pow(0.96, t * self._initial_decay))
        self._cache_t1 = b1 * (1.0 - 0.5 * K.pow(0.96, (t + 1.0) * self._initial_decay))
        self._schedule_new = self._m_cache * self._cache_t
        return [K.update(self._m_cache, self._schedule_new)]

    def step(self, p, g, slots, lr, t):
        b1, b2 = self._get_hyper("beta_1", p.dtype), self._get_hyper("beta_2", p.dtype)
        schedule_next = self._schedule_new * self._cache_t1
        m = b1 * slots[0] + (1.0 - b1) * g
        v = b2 * slots[1] + (1.0 - b2) * K.square(g)
        m_bar = (1.0 - self._cache_t) * g / (1.0 - self._schedule_new) + self._cache_t1 * m / (1.0 - schedule_next)
        return p - lr * m_bar / (K.sqrt(v / (1.0 - K.pow(b2, t))) + self.epsilon), [m, v]


class Ftrl(Optimizer):
    """FTRL-Proximal as tf.train's (TF's ApplyFtrlV2 kernel, trainer/train/ftrl.py), with the slots "accumulator"
    (starting at initial_accumulator_value) and "linear", made variable by variable as TF 1.15 makes them."""

    defaults = {"learning_rate": 0.001, "learning_rate_power": -0.5, "initial_accumulator_value": 0.1,
                "l1_regularization_strength": 0.0, "l2_regularization_strength": 0.0,
                "l2_shrinkage_regularization_strength": 0.0}
    hypers = ("learning_rate", "decay", "learning_rate_power", "l1_regularization_strength",
              "l2_regularization_strength")
    slots = ("accumulator", "linear")

    def __init__(self, *args, **kwargs):
        if len(args) > 5:  # TF's positional order puts name before l2_shrinkage_regularization_strength
            kwargs.update(zip(("name", "l2_shrinkage_regularization_strength"), args[5:]))
            args = args[:5]
        super().__init__(*args, **kwargs)
        for what, sign in [("initial_accumulator_value", "positive"), ("learning_rate_power", "negative"),
                           ("l1_regularization_strength", "positive"), ("l2_regularization_strength", "positive"),
                           ("l2_shrinkage_regularization_strength", "positive")]:
            value = self._hyper[what] if what in self._hyper else self.__dict__[what]
            if isinstance(value, (int, float)) and (value > 0 if sign == "negative" else value < 0):
                raise ValueError(f"{what} {value!r} needs to be {sign} or zero")

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "accumulator", self.initial_accumulator_value)
            self.add_slot(var, "linear")

    def step(self, p, g, slots, lr, t):
        accum, linear = slots
        power = -self._get_hyper("learning_rate_power", p.dtype)
        l1 = self._get_hyper("l1_regularization_strength", p.dtype)
        l2 = self._get_hyper("l2_regularization_strength", p.dtype)
        new_accum = accum + K.square(g)
        new_linear = (linear + g + 2.0 * self.l2_shrinkage_regularization_strength * p
                      - (K.pow(new_accum, power) - K.pow(accum, power)) / lr * p)
        quadratic = K.pow(new_accum, power) / lr + 2.0 * l2
        new_p = where(K.greater(K.abs(new_linear), l1), (l1 * K.sign(new_linear) - new_linear) / quadratic,
                      K.zeros_like(p))
        return new_p, [new_accum, new_linear]


class TFOptimizer(Optimizer):
    """A tf.train optimizer under Keras: its minimize() is the update. Its `iterations` is made at construction,
    as TF 1.15's TFOptimizer (a Keras 2.2.4 optimizer, not an OptimizerV2) makes it."""

    def __init__(self, optimizer, iterations=None):
        super().__init__(name="TFOptimizer")
        self.optimizer = optimizer
        if iterations is None:
            with get_default_graph().name_scope("TFOptimizer"):
                iterations = Variable(0, dtype="int64", name="iterations", trainable=False)
        self.iterations = iterations

    def get_updates(self, loss, params):
        return [self.optimizer.minimize(loss, var_list=params), K.update_add(self.iterations, 1)]

    def get_config(self):
        raise NotImplementedError("A tf.train optimizer has no Keras config: compile with a tf.keras optimizer to "
                                  "save it with the model")


sgd, adam, rmsprop, adagrad, adadelta, adamax, nadam = SGD, Adam, RMSprop, Adagrad, Adadelta, Adamax, Nadam
_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad, "adadelta": Adadelta,
            "adamax": Adamax, "nadam": Nadam, "ftrl": Ftrl}


def serialize(optimizer):
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config, custom_objects=None):
    """The optimizer of a {"class_name", "config"} dict. As Keras does, a built-in's name is looked up in lower case
    (custom_objects first, so {"rmsprop": factory} replaces RMSprop), and a custom object without from_config (a
    factory function) is called with the config as keyword arguments."""
    custom_objects = custom_objects or {}
    given = config["class_name"]
    name = given.lower() if given.lower() in _BY_NAME else given
    found = next((custom_objects[n] for n in (name, given) if n in custom_objects), None) or _BY_NAME.get(name)
    if found is None:
        raise ValueError(f"Unknown optimizer: {given!r}; known: {sorted(_BY_NAME)}, or pass it in custom_objects")
    settings = dict(config.get("config", {}))
    if hasattr(found, "from_config"):
        return found.from_config(settings)
    return found(**settings)


def get(identifier):
    """An optimizer from a name ('adam'), a config dict, a Keras optimizer (as is) or a tf.train optimizer (or a
    wrapper of one, such as tg.DistributedOptimizer)."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, TrainOptimizer) or callable(getattr(identifier, "compute_gradients", None)):
        return TFOptimizer(identifier)  # a wrapper of one too, such as tg.DistributedOptimizer
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": identifier, "config": {}})
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}")
