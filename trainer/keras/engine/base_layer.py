"""Keras' Layer: weights made by build() on the first call, in a name scope named after the layer ("dense",
"dense_1", ... unique per graph), so variables read "dense/kernel:0" as in Keras 2.2.4-tf graph mode.

Calling a layer on Keras tensors (outputs of Input or of other layers) records a Node: which layer produced which
tensors from which. Networks walk these records to find their layers and to run them again on new inputs.
"""
import inspect
import re

from ...framework.graph import get_default_graph
from ...framework.tensor import Tensor
from ...ops.core_ops import identity
from ...ops.variables import Variable
from .. import backend as K
from .. import constraints, initializers, regularizers
from ..utils.generic_utils import to_list


def to_snake_case(name):
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_layer_name(base):
    """base, base_1, base_2, ... per graph, as Keras names layers."""
    n = K.get_uid(base)
    return base if n == 1 else f"{base}_{n - 1}"


class InputSpec:
    """What a layer accepts: dtype, shape, ndim, max_ndim, min_ndim, axes ({axis: size})."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None):
        self.dtype, self.shape = dtype, shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim, self.min_ndim, self.axes = max_ndim, min_ndim, axes or {}


class Node:
    """One call of `layer`: the Keras tensors it took and the ones it made, with the call's keyword arguments."""

    def __init__(self, layer, inputs, outputs, arguments, keys=None):
        self.outbound_layer, self.input_tensors, self.output_tensors = layer, inputs, outputs
        self.arguments = arguments
        self.keys = keys  # the names of a dict the layer took, its tensors in input_tensors by sorted name
        self.inbound_layers = [history(t)[0] for t in inputs]
        index = len(layer.inbound_nodes)
        layer.inbound_nodes.append(self)
        for i, t in enumerate(outputs):
            t._keras_history = (layer, index, i)  # Keras' own mark of a Keras tensor


def history(tensor):
    """(layer, node index, tensor index) of a Keras tensor."""
    found = getattr(tensor, "_keras_history", None)
    if found is None:
        raise ValueError(f"{tensor!r} is not a Keras tensor (an output of Input or of a Keras layer): a "
                         "Model's inputs must come from tf.keras.Input and its outputs from layers called on them; "
                         "wrap plain TF ops in a keras.layers.Lambda layer")
    return found


def _same_structure(outputs, like):
    return outputs if isinstance(like, (list, tuple)) else outputs[0]


def mask_of(x):
    """The Keras mask riding on a tensor (or a list of them: a list of masks), None where there is none."""
    if isinstance(x, (list, tuple)):
        masks = [getattr(t, "_keras_mask", None) for t in x]
        return None if all(m is None for m in masks) else masks
    return getattr(x, "_keras_mask", None)


def call_masked(layer, inputs, kwargs):
    """layer.call(inputs, **kwargs), the inputs' mask passed where call takes `mask`; the outputs carry the
    mask compute_mask gives them (as `_keras_mask`, Keras' own attribute). Outputs that are inputs are copied,
    so a layer's output is its own tensor."""
    mask = mask_of(inputs)
    if mask is not None and "mask" in call_arguments(layer.call) and "mask" not in kwargs:
        kwargs = dict(kwargs, mask=mask)
    outputs = layer.call(inputs, **kwargs)
    flat_in = to_list(inputs)
    flat_out = [identity(t) if any(t is x for x in flat_in) else t for t in to_list(outputs)]
    masks = layer.compute_mask(inputs, mask)
    for t, m in zip(flat_out, masks if isinstance(masks, (list, tuple)) else [masks] * len(flat_out)):
        if isinstance(t, Tensor):
            t._keras_mask = m  # Keras' own mark of a tensor's mask
    return _same_structure(flat_out, outputs)


def call_arguments(fn):
    """The names `fn` takes (the wrapped function's, for a decorated one)."""
    code = inspect.unwrap(fn).__code__
    return code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]


def flat_inputs(inputs):
    """The tensors of a layer's inputs: a dict's in the order of its sorted keys (as TF's nest flattens it)."""
    return [inputs[k] for k in sorted(inputs)] if isinstance(inputs, dict) else to_list(inputs)


def nested_inputs(node, tensors):
    """What the layer of `node` takes, made of `tensors` (one per input of the node): a dict where it took one."""
    if node.keys is not None:
        return dict(zip(node.keys, tensors))
    return tensors[0] if len(tensors) == 1 else tensors


def shape_of(x):
    if isinstance(x, dict):
        return {k: K.int_shape(t) for k, t in x.items()}
    return [K.int_shape(t) for t in x] if isinstance(x, (list, tuple)) else K.int_shape(x)


LAYERS = {}  # class name -> class: every Layer subclass, so a model config can name its layers' classes


class Layer:
    """Base of every Keras layer: subclasses give build(input_shape), call(inputs) and
    compute_output_shape(input_shape); get_config() returns what __init__ needs to make the layer again."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        LAYERS.setdefault(cls.__name__, cls)

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        allowed = {"input_shape", "batch_input_shape", "batch_size", "weights", "activity_regularizer",
                   "input_dim", "input_length"}
        unknown = set(kwargs) - allowed
        if unknown:
            raise TypeError(f"{type(self).__name__} got unexpected keyword arguments {sorted(unknown)}")
        self.name = name or unique_layer_name(to_snake_case(type(self).__name__))
        self.trainable = trainable
        self.dtype = dtype
        self.built = False
        self.input_spec = None
        self.supports_masking = False
        self.inbound_nodes = []
        self._trainable_weights, self._non_trainable_weights = [], []
        self._losses, self._updates = [], []
        self.activity_regularizer = regularizers.get(kwargs.get("activity_regularizer"))
        self._initial_weights = kwargs.get("weights")
        batch_input_shape = kwargs.get("batch_input_shape")
        if batch_input_shape is None and kwargs.get("input_shape") is not None:
            batch_input_shape = (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
        if batch_input_shape is None and kwargs.get("input_dim") is not None:
            batch_input_shape = (kwargs.get("batch_size"), kwargs["input_dim"])
        if batch_input_shape is not None:
            self.batch_input_shape = tuple(batch_input_shape)

    # --- what subclasses override ------------------------------------------------------------------------
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def compute_mask(self, inputs, mask=None):
        """The outputs' mask: the inputs' mask where the layer supports masking, else none (the mask stops)."""
        return mask if self.supports_masking else None

    def get_config(self):
        config = {"name": self.name, "trainable": self.trainable}
        if hasattr(self, "batch_input_shape"):
            config["batch_input_shape"] = self.batch_input_shape
        if self.dtype is not None:
            config["dtype"] = self.dtype
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    # --- weights -----------------------------------------------------------------------------------------
    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=True,
                   constraint=None, **kwargs):
        """A variable `name` of `shape` in the layer's scope, initialized by `initializer` (Keras' glorot_uniform
        when None for floats), penalized by `regularizer`, projected by `constraint` after updates."""
        initializer = initializers.get(initializer or "glorot_uniform")
        dtype = dtype or self.dtype or K.floatx()
        shape = tuple(int(d) for d in shape)
        weight = Variable(lambda: initializer(shape, dtype=dtype), name=name, dtype=dtype,
                          constraint=constraints.get(constraint), trainable=trainable)
        regularizer = regularizers.get(regularizer)
        if regularizer is not None:
            with get_default_graph().name_scope(name + "/Regularizer"):
                self._losses.append(regularizer(weight))
        (self._trainable_weights if trainable else self._non_trainable_weights).append(weight)
        return weight

    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return list(self._trainable_weights) + list(self._non_trainable_weights)

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def non_trainable_variables(self):
        return self.non_trainable_weights

    @property
    def variables(self):
        return self.weights

    def get_weights(self):
        """The weights' values as numpy arrays, in `weights` order."""
        return K.batch_get_value(self.weights)

    def set_weights(self, weights):
        """Assign numpy arrays to the weights, in `weights` order; shapes must match."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer {self.name!r} with a weight list of "
                             f"length {len(weights)}, but the layer was expecting {len(params)} weights")
        pairs = []
        for p, w in zip(params, weights):
            if K.int_shape(p) != tuple(getattr(w, "shape", ())):
                raise ValueError(f"Layer weight shape {K.int_shape(p)} not compatible with provided weight "
                                 f"shape {getattr(w, 'shape', ())} for {p.name!r} of layer {self.name!r}")
            pairs.append((p, w))
        K.batch_set_value(pairs)

    def count_params(self):
        return int(sum(K.count_params(w) for w in self.weights))

    # --- losses and updates ------------------------------------------------------------------------------
    @property
    def losses(self):
        return list(self._losses)

    def add_loss(self, losses, inputs=None):
        self._losses.extend(to_list(losses))

    @property
    def updates(self):
        return list(self._updates) if self.trainable else []

    def add_update(self, updates, inputs=None):
        self._updates.extend(to_list(updates))

    # --- calling -----------------------------------------------------------------------------------------
    def apply(self, inputs, *args, **kwargs):
        """The layer called on inputs: TF 1.15's older spelling of layer(inputs, ...)."""
        return self.__call__(inputs, *args, **kwargs)

    def __call__(self, inputs, **kwargs):
        self.assert_input_compatibility(inputs)
        graph = get_default_graph()
        with graph.name_scope(self.name):
            if not self.built:
                self.build(shape_of(inputs))
                self.built = True
                if self._initial_weights is not None:
                    self.set_weights(self._initial_weights)
                    self._initial_weights = None
            outputs = call_masked(self, inputs, kwargs)
            flat_in, flat_out = flat_inputs(inputs), to_list(outputs)
            if self.activity_regularizer is not None:
                with graph.name_scope("ActivityRegularizer"):
                    self._losses.extend(self.activity_regularizer(t) / K.cast(K.shape(t)[0], K.floatx())
                                        for t in flat_out)
        if flat_in and all(hasattr(t, "_keras_history") for t in flat_in):
            Node(self, flat_in, flat_out, kwargs, sorted(inputs) if isinstance(inputs, dict) else None)
        return outputs

    def assert_input_compatibility(self, inputs):
        if self.input_spec is None:
            return
        for x, spec in zip(to_list(inputs), to_list(self.input_spec)):
            if spec is None:
                continue
            if not isinstance(x, Tensor):
                raise ValueError(f"Layer {self.name} was called with an input that isn't a symbolic tensor: "
                                 f"{x!r}; call it on tf.keras.Input(...) or a layer's output")
            rank = K.ndim(x)
            if spec.ndim is not None and rank != spec.ndim:
                raise ValueError(f"Input 0 of layer {self.name} is incompatible with the layer: expected "
                                 f"ndim={spec.ndim}, found ndim={rank}. Full shape received: {K.int_shape(x)}")
            if spec.min_ndim is not None and rank is not None and rank < spec.min_ndim:
                raise ValueError(f"Input 0 of layer {self.name} is incompatible with the layer: expected "
                                 f"min_ndim={spec.min_ndim}, found ndim={rank}. Full shape received: "
                                 f"{K.int_shape(x)}")
            shape = K.int_shape(x)
            for axis, size in spec.axes.items():
                if shape is not None and shape[axis] not in (None, size):
                    raise ValueError(f"Input 0 of layer {self.name} is incompatible with the layer: expected "
                                     f"axis {axis} of input shape to have value {size} but received input with "
                                     f"shape {shape}")

    def _node_attr(self, attr, index, what):
        if not self.inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no {what} to return (call it on a tensor "
                                 "first)")
        values = getattr(self.inbound_nodes[index], attr)
        return values[0] if len(values) == 1 else values

    def get_input_at(self, node_index):
        return self._node_attr("input_tensors", node_index, "input")

    def get_output_at(self, node_index):
        return self._node_attr("output_tensors", node_index, "output")

    @property
    def input(self):
        return self.get_input_at(0)

    @property
    def output(self):
        return self.get_output_at(0)

    @property
    def input_shape(self):
        return shape_of(self.input)

    @property
    def output_shape(self):
        return shape_of(self.output)

