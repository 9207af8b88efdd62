"""tf.keras.optimizers as TF 1.15 makes them (its OptimizerV2 formulas and defaults: epsilon 1e-7, learning rate
0.01 for SGD, 0.001 for the rest), built as graph ops by get_updates(loss, params).

`lr` (alias `learning_rate`) and `decay` are variables, read and set with K.get_value/K.set_value; the learning
rate at step t is lr / (1 + decay * t). A tf.train optimizer passed to compile is wrapped in TFOptimizer.
"""
import numpy as np

from ..framework.graph import get_default_graph
from ..framework.graph_wrappers import control_dependencies
from ..ops.clip_ops import clip_by_norm, clip_by_value
from ..ops.gradients import gradients
from ..ops.variables import Variable
from ..train.optimizer import Optimizer as TrainOptimizer
from . import backend as K
from .optimizer_v2 import learning_rate_schedule as schedules  # noqa: F401  (tf.keras.optimizers.schedules)


class Optimizer:
    """Base: subclasses name their per-weight `slots` and give step(p, g, slots, lr, t) -> (new p, new slots).

    get_gradients(loss, params) is the override point for what reaches the update; get_updates builds the step
    from it. `gradient_aggregator` (TF's OptimizerV2 argument: [(gradient, variable)] -> the same, aggregated)
    is applied last, after clipping: Horovod's Keras DistributedOptimizer averages over ranks there.
    """

    slots = ()
    defaults = {"learning_rate": 0.001}

    def __init__(self, *args, **kwargs):
        if len(args) > len(self.defaults):
            raise TypeError(f"{type(self).__name__} takes at most {len(self.defaults)} positional arguments "
                            f"({', '.join(self.defaults)}), got {len(args)}")
        for name, value in zip(self.defaults, args):  # TF's positional order: learning_rate first
            if name in kwargs:
                raise TypeError(f"{type(self).__name__} got multiple values for argument {name!r}")
            kwargs[name] = value
        if "lr" in kwargs:
            kwargs["learning_rate"] = kwargs.pop("lr")
        self.clipnorm, self.clipvalue = kwargs.pop("clipnorm", None), kwargs.pop("clipvalue", None)
        decay = kwargs.pop("decay", 0.0)
        self.gradient_aggregator = kwargs.pop("gradient_aggregator", None)
        unknown = set(kwargs) - set(self.defaults)
        if unknown:
            raise TypeError(f"Unexpected keyword arguments to {type(self).__name__}: {sorted(unknown)}; it takes "
                            f"{sorted(self.defaults)}, lr, decay, clipnorm, clipvalue and gradient_aggregator")
        self.hyper = dict(self.defaults, **kwargs)
        with get_default_graph().name_scope(type(self).__name__):
            self.iterations = Variable(0, dtype="int64", name="iterations", trainable=False)
            self.lr = K.variable(self.hyper.pop("learning_rate"), name="learning_rate")
            self.decay = K.variable(decay, name="decay")
        self.weights = [self.iterations]

    @property
    def learning_rate(self):
        return self.lr

    def get_gradients(self, loss, params):
        grads = gradients(loss, params)
        if any(g is None for g in grads):
            missing = [p.name for p, g in zip(params, grads) if g is None]
            raise ValueError(f"An operation has `None` for gradient: no gradient reaches {missing} from the loss; "
                             "make sure every trainable weight takes part in computing the loss")
        if self.clipnorm is not None:
            grads = [clip_by_norm(g, self.clipnorm) for g in grads]
        if self.clipvalue is not None:
            grads = [clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        if self.gradient_aggregator is not None:
            grads = [g for g, _ in self.gradient_aggregator(list(zip(grads, params)))]
        return grads

    def get_updates(self, loss, params):
        """The update ops of one step on `params` for `loss`, the iteration count included."""
        grads = self.get_gradients(loss, params)
        t = K.cast(self.iterations, K.floatx())
        lr = self.lr / (1.0 + self.decay * t)
        news = []
        for p, g in zip(params, grads):
            slots = [self._slot(p, name) for name in self.slots]
            new_p, new_slots = self.step(p, g, slots, lr, t + 1.0)
            constraint = getattr(p, "constraint", None)
            news.append((p, constraint(new_p) if constraint is not None else new_p))
            news.extend(zip(slots, new_slots))
        with control_dependencies([v for _, v in news]):  # every read before any write
            updates = [K.update(var, value) for var, value in news]
        return updates + [K.update_add(self.iterations, 1)]

    def step(self, p, g, slots, lr, t):
        """(new p, new slots) of one update: what a subclass writes (TF's _resource_apply_dense is not called)."""
        raise NotImplementedError(f"{type(self).__name__} has no update rule: a ringflow Keras optimizer overrides "
                                  "step(p, g, slots, lr, t) -> (new p, [new slot values]); TF's "
                                  "_resource_apply_dense/_apply_dense are not called")

    def _slot(self, p, name):
        value = np.full(K.int_shape(p), self.slot_initial(name))
        slot = K.variable(value, dtype=K.dtype(p), name=f"{p.op.name}/{name}")
        self.weights.append(slot)
        return slot

    def slot_initial(self, name):
        return 0.0

    def get_config(self):
        config = {"learning_rate": float(K.get_value(self.lr)), "decay": float(K.get_value(self.decay))}
        config.update(self.hyper)
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_weights(self):
        return K.batch_get_value(self.weights)

    def set_weights(self, weights):
        K.batch_set_value(list(zip(self.weights, weights)))


class SGD(Optimizer):
    """v = momentum * v - lr * g; p += v (nesterov: p += momentum * v - lr * g)."""

    defaults = {"learning_rate": 0.01, "momentum": 0.0, "nesterov": False}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.slots = ("momentum",) if self.hyper["momentum"] else ()

    def step(self, p, g, slots, lr, t):
        m = self.hyper["momentum"]
        if not slots:
            return p - lr * g, []
        v = m * slots[0] - lr * g
        return (p + m * v - lr * g if self.hyper["nesterov"] else p + v), [v]


class Adam(Optimizer):
    """m, v moving averages of g and g**2; p -= lr * sqrt(1 - beta_2**t) / (1 - beta_1**t) * m / (sqrt(v) + eps)."""

    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7, "amsgrad": False}

    @property
    def slots(self):
        return ("m", "v", "vhat") if self.hyper["amsgrad"] else ("m", "v")

    def step(self, p, g, slots, lr, t):
        b1, b2, eps = self.hyper["beta_1"], self.hyper["beta_2"], self.hyper["epsilon"]
        lr_t = lr * K.sqrt(1.0 - K.pow(b2, t)) / (1.0 - K.pow(b1, t))
        m = b1 * slots[0] + (1.0 - b1) * g
        v = b2 * slots[1] + (1.0 - b2) * K.square(g)
        if self.hyper["amsgrad"]:
            vhat = K.maximum(slots[2], v)
            return p - lr_t * m / (K.sqrt(vhat) + eps), [m, v, vhat]
        return p - lr_t * m / (K.sqrt(v) + eps), [m, v]


class RMSprop(Optimizer):
    """ms = rho * ms + (1 - rho) * g**2; p -= lr * g / (sqrt(ms) + eps) (with momentum, TF's
    mom = momentum * mom + lr * g / sqrt(ms + eps); p -= mom)."""

    defaults = {"learning_rate": 0.001, "rho": 0.9, "momentum": 0.0, "epsilon": 1e-7, "centered": False}

    @property
    def slots(self):
        return ("rms", "momentum", "mg")

    def step(self, p, g, slots, lr, t):
        rho, mom, eps = self.hyper["rho"], self.hyper["momentum"], self.hyper["epsilon"]
        ms = rho * slots[0] + (1.0 - rho) * K.square(g)
        mg = rho * slots[2] + (1.0 - rho) * g if self.hyper["centered"] else slots[2]
        denom = ms - K.square(mg) if self.hyper["centered"] else ms
        if mom:
            moment = mom * slots[1] + lr * g / K.sqrt(denom + eps)
            return p - moment, [ms, moment, mg]
        return p - lr * g / (K.sqrt(denom) + eps), [ms, slots[1], mg]


class Adagrad(Optimizer):
    """acc += g**2; p -= lr * g / (sqrt(acc) + eps), acc starting at initial_accumulator_value."""

    defaults = {"learning_rate": 0.001, "initial_accumulator_value": 0.1, "epsilon": 1e-7}
    slots = ("accumulator",)

    def slot_initial(self, name):
        return self.hyper["initial_accumulator_value"]

    def step(self, p, g, slots, lr, t):
        acc = slots[0] + K.square(g)
        return p - lr * g / (K.sqrt(acc) + self.hyper["epsilon"]), [acc]


class Adadelta(Optimizer):
    """Zeiler's Adadelta with TF's epsilon inside both square roots, scaled by lr."""

    defaults = {"learning_rate": 0.001, "rho": 0.95, "epsilon": 1e-7}
    slots = ("accum_grad", "accum_var")

    def step(self, p, g, slots, lr, t):
        rho, eps = self.hyper["rho"], self.hyper["epsilon"]
        accum = rho * slots[0] + (1.0 - rho) * K.square(g)
        update = K.sqrt(slots[1] + eps) / K.sqrt(accum + eps) * g
        accum_update = rho * slots[1] + (1.0 - rho) * K.square(update)
        return p - lr * update, [accum, accum_update]


class Adamax(Optimizer):
    """Adam on the infinity norm: u = max(beta_2 * u, |g|); p -= lr / (1 - beta_1**t) * m / (u + eps)."""

    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}
    slots = ("m", "v")

    def step(self, p, g, slots, lr, t):
        b1, b2, eps = self.hyper["beta_1"], self.hyper["beta_2"], self.hyper["epsilon"]
        m = b1 * slots[0] + (1.0 - b1) * g
        u = K.maximum(b2 * slots[1], K.abs(g))
        return p - lr / (1.0 - K.pow(b1, t)) * m / (u + eps), [m, u]


class Nadam(Optimizer):
    """Adam with Nesterov momentum and Keras' momentum schedule (0.96 ** (0.004 * t))."""

    defaults = {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}
    slots = ("m", "v")

    def __init__(self, *args, **kwargs):
        kwargs.pop("schedule_decay", None)
        super().__init__(*args, **kwargs)
        with get_default_graph().name_scope(type(self).__name__):
            self.m_schedule = K.variable(1.0, name="momentum_cache")
        self.weights.append(self.m_schedule)

    def get_updates(self, loss, params):
        t = K.cast(self.iterations, K.floatx()) + 1.0
        b1 = self.hyper["beta_1"]
        self.cache_t = b1 * (1.0 - 0.5 * K.pow(0.96, t * 0.004))
        self.cache_t1 = b1 * (1.0 - 0.5 * K.pow(0.96, (t + 1.0) * 0.004))
        self.schedule_new = self.m_schedule * self.cache_t
        updates = super().get_updates(loss, params)
        return updates + [K.update(self.m_schedule, self.schedule_new)]

    def step(self, p, g, slots, lr, t):
        b1, b2, eps = self.hyper["beta_1"], self.hyper["beta_2"], self.hyper["epsilon"]
        schedule_next = self.schedule_new * self.cache_t1
        m = b1 * slots[0] + (1.0 - b1) * g
        v = b2 * slots[1] + (1.0 - b2) * K.square(g)
        m_bar = (1.0 - self.cache_t) * g / (1.0 - self.schedule_new) + self.cache_t1 * m / (1.0 - schedule_next)
        return p - lr * m_bar / (K.sqrt(v / (1.0 - K.pow(b2, t))) + eps), [m, v]


class TFOptimizer(Optimizer):
    """A tf.train optimizer under Keras: its minimize() is the update."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        with get_default_graph().name_scope("TFOptimizer"):
            self.iterations = Variable(0, dtype="int64", name="iterations", trainable=False)
        self.weights = [self.iterations]
        self.clipnorm = self.clipvalue = self.gradient_aggregator = None

    def get_updates(self, loss, params):
        return [self.optimizer.minimize(loss, var_list=params), K.update_add(self.iterations, 1)]

    def get_config(self):
        raise NotImplementedError("A tf.train optimizer has no Keras config: compile with a tf.keras optimizer to "
                                  "save it with the model")


sgd, adam, rmsprop, adagrad, adadelta, adamax, nadam = SGD, Adam, RMSprop, Adagrad, Adadelta, Adamax, Nadam
_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad, "adadelta": Adadelta,
            "adamax": Adamax, "nadam": Nadam}


def serialize(optimizer):
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config, custom_objects=None):
    known = dict({cls.__name__: cls for cls in _BY_NAME.values()}, **_BY_NAME, **(custom_objects or {}))
    name = config["class_name"]
    if name.lower() in _BY_NAME:
        name = name.lower() if name not in known else name
    if name not in known:
        raise ValueError(f"Unknown optimizer: {config['class_name']!r}; known: {sorted(_BY_NAME)}")
    return known[name].from_config(config.get("config", {}))


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
