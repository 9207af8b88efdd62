"""tensorflow.python.keras.optimizer_v2.optimizer_v2: OptimizerV2, which in TF 1.15 is tf.keras.optimizers.Optimizer.

Its variables are made lazily, as TF 1.15's are in graph mode, so that every rank of a data-parallel job (one
whose optimizer came from load_model, one freshly compiled) ends up with the same variables in the same order:
- hyper-parameters are Python values until first read (`opt.lr`, `opt.beta_1`, a step); then all of them become
  variables at once, in name order, in the name scope they are read in;
- `iterations` ("iter") is made when first read, and by the first apply_gradients/get_updates, which makes the
  iteration count, the hyper-parameters and the slots (slot name by slot name, variable by variable) under the
  optimizer's name scope; `weights` is [iterations] + the slots, empty before.
A subclass sets its hyper-parameters with _set_hyper, makes its slots in _create_slots with add_slot and writes
_resource_apply_dense(grad, var) (TF's override points), or, as ringflow's built-in optimizers do, names its
`slots` and writes step(p, g, slots, lr, t) -> (new p, new slots).
"""
import numpy as np

from ...framework.graph import get_default_graph
from ...framework.graph_wrappers import control_dependencies
from ...framework.tensor import Tensor
from ...ops.clip_ops import clip_by_norm, clip_by_value
from ...ops.core_ops import group
from ...ops.gradients import gradients
from ...ops.variables import Variable
from .. import backend as K
from . import learning_rate_schedule

BASE_KWARGS = ("clipnorm", "clipvalue", "lr", "decay", "gradient_aggregator")


class OptimizerV2:
    """TF 1.15's OptimizerV2 in graph mode (see the module docstring for when its variables are made).

    `defaults` lists a subclass's constructor arguments in TF's positional order (then `name`); those in `hypers`
    become variables, the others plain attributes. get_gradients(loss, params) is the override point for what
    reaches the update; `gradient_aggregator` (TF 2.4's argument: [(gradient, variable)] -> the same,
    aggregated) is applied last, after clipping.
    """

    defaults = {}
    hypers = ()
    slots = ()

    def __init__(self, *args, **kwargs):
        order = tuple(self.defaults) + ("name",)
        if len(args) > len(order):
            raise TypeError(f"{type(self).__name__} takes at most {len(order)} positional arguments "
                            f"({', '.join(order)}), got {len(args)}")
        for name, value in zip(order, args):  # TF's positional order: learning_rate first, name last
            if name in kwargs:
                raise TypeError(f"{type(self).__name__} got multiple values for argument {name!r}")
            kwargs[name] = value
        if "lr" in kwargs:
            kwargs["learning_rate"] = kwargs.pop("lr")
        self._hyper, self._weights, self._slots, self._slot_names = {}, [], {}, []
        self._iterations, self._hypers_created = None, False
        self._name = kwargs.pop("name", None) or self.default_name()
        for name in ("clipnorm", "clipvalue"):
            if kwargs.get(name) is not None:
                setattr(self, name, kwargs.pop(name))
            kwargs.pop(name, None)
        self.gradient_aggregator = kwargs.pop("gradient_aggregator", None)
        self._initial_decay = kwargs.pop("decay", self.defaults.get("decay", 0.0))
        unknown = set(kwargs) - set(self.defaults)
        if unknown:
            raise TypeError(f"Unexpected keyword arguments to {type(self).__name__}: {sorted(unknown)}; it takes "
                            f"{sorted(set(self.defaults) | {'name'} | set(BASE_KWARGS))}")
        values = dict(self.defaults, decay=self._initial_decay, **kwargs)
        if "epsilon" in values and values["epsilon"] is None:  # Keras 2.2.4's default, which TF 1.15 takes too
            values["epsilon"] = K.epsilon()
        for name in self.hypers:
            self._set_hyper(name, values[name])
        for name in self.defaults:
            if name not in self.hypers:
                setattr(self, name, values[name])

    @classmethod
    def default_name(cls):
        """The name an optimizer takes without name=: its built-in class's (a user's subclass keeps it)."""
        return next(c.__name__ for c in cls.__mro__ if "defaults" in vars(c) or c is OptimizerV2)

    # --- hyper-parameters: Python values until first read -----------------------------------------------
    def _set_hyper(self, name, value):
        current = self._hyper.get(name)
        if isinstance(current, Variable) and not isinstance(value, Tensor):
            K.set_value(current, value)
        else:
            self._hyper[name] = value

    def _get_hyper(self, name, dtype=None):
        self._create_hypers()
        value = self._hyper[name]
        if isinstance(value, learning_rate_schedule.LearningRateSchedule):  # TF 1.15: the rate at this step
            value = value(self.iterations)
        elif callable(value) and not isinstance(value, Tensor):
            value = value()
        return K.cast(value, dtype) if dtype is not None else value

    def _create_hypers(self):
        if self._hypers_created:
            return
        self._hypers_created = True
        for name, value in sorted(self._hyper.items()):
            if not isinstance(value, Tensor) and not callable(value):
                self._hyper[name] = self.add_weight(name, value)

    def _serialize_hyperparameter(self, name):
        value = self._hyper[name]
        if isinstance(value, learning_rate_schedule.LearningRateSchedule):
            return learning_rate_schedule.serialize(value)
        if callable(value) and not isinstance(value, Tensor):
            value = value()
        return float(K.get_value(value)) if isinstance(value, Tensor) else value

    def __getattr__(self, name):  # only for names not found otherwise: the hyper-parameters
        if name.startswith("__") or name == "_hyper":
            raise AttributeError(name)
        key = "learning_rate" if name == "lr" else name
        if key in self.__dict__.get("_hyper", {}):
            return self._get_hyper(key)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name, value):
        key = "learning_rate" if name == "lr" else name
        if key in self.__dict__.get("_hyper", {}):
            self._set_hyper(key, value)
        else:
            super().__setattr__(name, value)

    # --- variables --------------------------------------------------------------------------------------
    def add_weight(self, name, initial_value, dtype=None):
        """A non-trainable scalar variable in the current name scope (TF's add_weight, as optimizers use it):
        float32 unless told, whatever K.floatx() is, as TF's, so a float64 model steps by float32 hyper-parameters."""
        value = np.asarray(initial_value, dtype=dtype or np.float32)
        return Variable(value, dtype=value.dtype, name=name, trainable=False)

    @property
    def iterations(self):
        """The number of steps taken: an int64 variable "iter", made when first read."""
        if self._iterations is None:
            self._iterations = self.add_weight("iter", 0, dtype="int64")
            self._weights.append(self._iterations)
        return self._iterations

    @iterations.setter
    def iterations(self, variable):
        if self._iterations is not None:
            raise RuntimeError("Cannot set `iterations` to a new Variable after the Optimizer weights have been "
                               "created")
        self._iterations = variable
        self._weights.append(variable)

    def add_slot(self, var, slot_name, initializer="zeros"):
        """The variable `slot_name` of `var` (made now, next to it: "<var's name>/<slot_name>", if it is new)."""
        if slot_name not in self._slot_names:
            self._slot_names.append(slot_name)
        slots = self._slots.setdefault(id(var), {})
        if slot_name not in slots:
            fill = 0.0 if initializer == "zeros" else 1.0 if initializer == "ones" else initializer
            value = np.full(K.int_shape(var), fill, dtype=np.dtype(var.dtype))
            slots[slot_name] = Variable(value, name=f"{var.op.name}/{slot_name}", trainable=False)
            self._weights.append(slots[slot_name])
        return slots[slot_name]

    def get_slot(self, var, slot_name):
        return self._slots[id(var)][slot_name]

    def get_slot_names(self):
        return list(self._slot_names)

    def _create_slots(self, var_list):
        for name in self.slots:  # slot by slot, then variable by variable: TF's order
            for var in var_list:
                self.add_slot(var, name, self.slot_initial(name))

    def slot_initial(self, name):
        return "zeros"

    def _create_all_weights(self, var_list):
        """Make the iteration count, the hyper-parameters and the slots of var_list, under the optimizer's name
        scope and outside any control dependencies (TF's init_scope)."""
        with get_default_graph().name_scope(self._name), control_dependencies(None):
            _ = self.iterations
            self._create_hypers()
            self._create_slots(var_list)

    @property
    def weights(self):
        return list(self._weights)

    def variables(self):
        return self.weights

    def get_weights(self):
        return K.batch_get_value(self._weights)

    def set_weights(self, weights):
        if len(weights) != len(self._weights):
            raise ValueError(f"You called `set_weights(weights)` on optimizer {self._name} with a weight list of "
                             f"length {len(weights)}, but the optimizer was expecting {len(self._weights)} weights "
                             f"({[w.name for w in self._weights]}): build the training step first "
                             "(model._make_train_function, or a first fit step)")
        K.batch_set_value(list(zip(self._weights, weights)))

    # --- the step ---------------------------------------------------------------------------------------
    def get_gradients(self, loss, params):
        grads = gradients(loss, params)
        if any(g is None for g in grads):
            missing = [p.name for p, g in zip(params, grads) if g is None]
            raise ValueError(f"An operation has `None` for gradient: no gradient reaches {missing} from the loss; "
                             "make sure every trainable weight takes part in computing the loss")
        if getattr(self, "clipnorm", None) is not None:
            grads = [clip_by_norm(g, self.clipnorm) for g in grads]
        if getattr(self, "clipvalue", None) is not None:
            grads = [clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        if self.gradient_aggregator is not None:
            grads = [g for g, _ in self.gradient_aggregator(list(zip(grads, params)))]
        return grads

    def get_updates(self, loss, params):
        """The update op of one step on `params` for `loss`, the iteration count included, in a list."""
        grads = self.get_gradients(loss, params)
        return [self.apply_gradients(list(zip(grads, params)))]

    def apply_gradients(self, grads_and_vars, name=None):
        """One step: each variable's update, then iterations + 1 (an Operation)."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable: {[v.name for _, v in grads_and_vars]}")
        self._create_all_weights([v for _, v in pairs])
        graph = get_default_graph()
        with graph.name_scope(self._name):
            updates = self._prepare([v for _, v in pairs])
            for g, v in pairs:
                with graph.name_scope("update_" + v.op.name.replace("/", "_")):
                    updates.append(self._resource_apply_dense(g, v))
            with control_dependencies(updates):
                return group(self.iterations.assign_add(np.int64(1)), name=name or "update")

    def _prepare(self, var_list):
        """Ops every variable's update needs, built once per step (Nadam's momentum cache); a list of them."""
        return []

    def _decayed_lr(self, dtype):
        lr = self._get_hyper("learning_rate", dtype)
        if self._initial_decay > 0:
            lr = lr / (1.0 + self._get_hyper("decay", dtype) * K.cast(self.iterations, dtype))
        return lr

    def _resource_apply_dense(self, grad, var):
        """The update of `var` by `grad`: step()'s new values, assigned once all are computed."""
        if type(self).step is OptimizerV2.step:
            self.step(var, grad, [], None, None)  # says what to write
        dtype = var.dtype
        slots = [self.get_slot(var, name) for name in self.slots]
        t = K.cast(self.iterations, dtype) + 1.0
        new_p, new_slots = self.step(var, grad, slots, self._decayed_lr(dtype), t)
        constraint = getattr(var, "constraint", None)
        news = [(var, constraint(new_p) if constraint is not None else new_p)] + list(zip(slots, new_slots))
        with control_dependencies([value for _, value in news]):  # every read before any write
            return group(*[K.update(target, value) for target, value in news])

    def step(self, p, g, slots, lr, t):
        """(new p, new slots) of one update: what a built-in optimizer writes instead of _resource_apply_dense."""
        raise NotImplementedError(f"{type(self).__name__} has no update rule: a Keras optimizer overrides "
                                  "_resource_apply_dense(grad, var) (TF's override point) or ringflow's "
                                  "step(p, g, slots, lr, t) -> (new p, [new slot values])")

    # --- config -----------------------------------------------------------------------------------------
    def get_config(self):
        config = {"name": self._name}
        for name in ("clipnorm", "clipvalue"):
            if name in self.__dict__:
                config[name] = self.__dict__[name]
        if "learning_rate" in self._hyper:
            config["learning_rate"] = self._serialize_hyperparameter("learning_rate")
        if "decay" in self._hyper:
            config["decay"] = self._serialize_hyperparameter("decay")
        for name in self.defaults:
            if name not in config:
                config[name] = self._serialize_hyperparameter(name) if name in self._hyper else getattr(self, name)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if "lr" in config:
            config["learning_rate"] = config.pop("lr")
        if isinstance(config.get("learning_rate"), dict):  # a serialized schedule
            config["learning_rate"] = learning_rate_schedule.deserialize(config["learning_rate"], custom_objects)
        return cls(**config)
