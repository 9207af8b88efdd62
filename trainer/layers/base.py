"""tf.layers' Layer: variables under a TF1 variable scope named after the layer, made on the first call.

A layer object owns one variable scope: "dense", "dense_1", ... (unique in the enclosing variable scope, as TF1's
default names are: counted afresh each time that scope is entered again by name), or its `name`, made unique the
same way unless the layer reuses. Its first call creates the variables there with
tg.get_variable, so TF1's reuse rules and enclosing scopes apply; later calls reuse them.
"""
import re

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph_wrappers import name_scope
from ..framework.graph_keys import GraphKeys
from ..ops.core_ops import convert_to_tensor
from ..ops.scopes import variable_scope
from ..ops.variables import get_variable, global_variables


def static_dims(t):
    """A tensor's static dims as a tuple (None for unknown dims), or None when its rank is unknown."""
    shape = t.shape
    if shape is None or getattr(shape, "ndims", 0) is None:
        return None
    return tuple(getattr(d, "value", d) for d in shape)


def _snake_case(name):
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


class Layer:
    """Base of the tf.layers classes: subclasses give build(input_shape) and call(inputs, ...)."""

    def __init__(self, trainable=True, name=None, dtype=None, activity_regularizer=None, _scope=None,
                 _reuse=None, **kwargs):
        if kwargs:
            raise TypeError(f"{type(self).__name__} got unexpected keyword arguments {sorted(kwargs)}")
        self.trainable = trainable
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self.activity_regularizer = activity_regularizer
        self.name = name or _snake_case(type(self).__name__)
        self._base_name = self.name
        self._reuse = _reuse
        self._scope = None
        self.built = False
        self._trainable_weights, self._non_trainable_weights = [], []
        self._losses, self._updates = [], []
        if _scope:
            with variable_scope(_scope) as captured:
                self._scope = captured

    # --- what subclasses override -----------------------------------------------------------------
    def build(self, input_shape):
        """Create the layer's variables for inputs of static shape `input_shape` (a tuple)."""
        self.built = True

    def call(self, inputs, **kwargs):
        return inputs

    # --- variables, losses and updates --------------------------------------------------------------
    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=True,
                   constraint=None, **kwargs):
        """Get or create the variable `name` in the layer's scope; a new one's regularizer loss is collected.

        `constraint` (variable -> projected value) is stored as var.constraint for the optimizers, as in TF1.
        """
        trainable = trainable and self.trainable
        existing = set(map(id, global_variables()))
        var = get_variable(name, shape=shape, dtype=dtype or self.dtype or dtypes.float32, initializer=initializer,
                           trainable=trainable, constraint=constraint)
        (self._trainable_weights if trainable else self._non_trainable_weights).append(var)
        if regularizer is not None and id(var) not in existing:
            with name_scope(f"{name}/Regularizer"):
                self.add_loss(regularizer(var))
        return var

    add_variable = add_weight

    def add_loss(self, losses, inputs=None):
        """Record regularization losses (a tensor or a list); they also go to GraphKeys.REGULARIZATION_LOSSES."""
        losses = list(losses) if isinstance(losses, (list, tuple)) else [losses]
        for loss in losses:
            if loss is None:
                continue
            loss = convert_to_tensor(loss)
            self._losses.append(loss)
            loss.graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)

    def add_update(self, updates, inputs=None):
        """Record update ops (e.g. moving averages); they also go to GraphKeys.UPDATE_OPS."""
        for update in updates if isinstance(updates, (list, tuple)) else [updates]:
            self._updates.append(update)
            update.graph.add_to_collection(GraphKeys.UPDATE_OPS, update)

    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return self._trainable_weights + self._non_trainable_weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    @property
    def losses(self):
        return list(self._losses)

    @property
    def updates(self):
        return list(self._updates)

    @property
    def scope_name(self):
        if self._scope is None:
            raise ValueError(f"The layer {self.name!r} has no scope yet: it is set on the layer's first call")
        return self._scope.name

    # --- calling ------------------------------------------------------------------------------------
    def __call__(self, inputs, *args, **kwargs):
        """Build the layer on its first call (in its variable scope), then run call(inputs, ...) there."""
        if not isinstance(inputs, (list, tuple)):
            inputs = convert_to_tensor(inputs)
        if self._scope is None:  # TF1's: a default name is made unique among the scopes entered so far
            name, default = (self._base_name, None) if self._reuse else (None, self._base_name)
            with variable_scope(name, default_name=default) as captured:
                self._scope = captured
            self.name = captured.name.rsplit("/", 1)[-1]
        with variable_scope(self._scope, reuse=True if self.built else self._reuse):
            if not self.built:
                if isinstance(inputs, Tensor) and self.dtype is None and inputs.dtype.kind == "f":
                    self.dtype = inputs.dtype
                self.build(static_dims(inputs) if isinstance(inputs, Tensor) else [static_dims(t) for t in inputs])
                self.built = True
            outputs = self.call(inputs, *args, **kwargs)
            if self.activity_regularizer is not None:
                with name_scope("ActivityRegularizer"):
                    self.add_loss(self.activity_regularizer(outputs))
        return outputs

    apply = __call__

    def __repr__(self):
        return f"<tg.layers.{type(self).__name__} {self.name!r}>"
