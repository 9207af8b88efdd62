"""Keras' layer wrappers: TimeDistributed (a layer applied to every time step) and Bidirectional (an RNN run
forwards and backwards, the two outputs merged)."""
from ...framework.graph import get_default_graph
from ...ops.reverse_ops import reverse
from .. import backend as K
from ..engine.base_layer import LAYERS, Layer, call_arguments
from ..utils.generic_utils import known_objects, to_list


def _layer_config(layer):
    return {"class_name": type(layer).__name__, "config": layer.get_config()}


def _layer_from(spec):
    known = known_objects(LAYERS)
    if spec["class_name"] not in known:
        raise ValueError(f"Unknown layer: {spec['class_name']}; define the layer class before loading the model")
    return known[spec["class_name"]].from_config(spec["config"])


def _call(layer, inputs, **kwargs):
    taken = call_arguments(layer.call)
    return layer.call(inputs, **{k: v for k, v in kwargs.items() if k in taken and v is not None})


class Wrapper(Layer):
    """A layer holding another: its weights are the inner layer's, built in the wrapper's name scope."""

    def __init__(self, layer, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer

    @property
    def trainable_weights(self):
        return self.layer.trainable_weights if self.trainable else []

    @property
    def non_trainable_weights(self):
        return self.layer.non_trainable_weights if self.trainable else self.layer.weights

    @property
    def losses(self):
        return list(self._losses) + self.layer.losses

    @property
    def updates(self):
        return list(self._updates) + self.layer.updates

    def get_config(self):
        return dict(super().get_config(), layer=_layer_config(self.layer))

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        return cls(_layer_from(config.pop("layer")), **config)


class TimeDistributed(Wrapper):
    """layer applied to each slice inputs[:, t] ((batch, time, ...) in): the steps folded into the batch."""

    def __init__(self, layer, **kwargs):
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    def build(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with at least 3 "
                             f"dimensions, received: {input_shape}")
        if not self.layer.built:
            self.layer.build((input_shape[0],) + tuple(input_shape[2:]))
            self.layer.built = True
        self.built = True

    def compute_output_shape(self, input_shape):
        inner = self.layer.compute_output_shape((input_shape[0],) + tuple(input_shape[2:]))
        return (inner[0], input_shape[1]) + tuple(inner[1:])

    def call(self, inputs, training=None, mask=None):
        shape = K.int_shape(inputs)
        steps = shape[1] if shape[1] is not None else K.shape(inputs)[1]
        folded = K.reshape(inputs, (-1,) + tuple(shape[2:]))
        inner_mask = K.reshape(mask, (-1,)) if mask is not None else None
        y = _call(self.layer, folded, training=training, mask=inner_mask)
        tail = K.int_shape(y)[1:]
        if shape[1] is None or any(d is None for d in tail):
            dynamic = K.shape(y)
            return K.reshape(y, K.concatenate([K.reshape(K.shape(inputs)[0], (1,)), K.reshape(steps, (1,)),
                                               dynamic[1:]], 0))
        return K.reshape(y, (-1, steps) + tuple(tail))


class Bidirectional(Wrapper):
    """Bidirectional(layer, merge_mode='concat'): a copy of the RNN `layer` forwards and one backwards (named
    forward_<name> and backward_<name>), their outputs merged by 'concat', 'sum', 'mul', 'ave' or kept apart
    (None)."""

    MERGES = ("sum", "mul", "ave", "concat", None)

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if merge_mode not in self.MERGES:
            raise ValueError(f"Invalid merge mode {merge_mode!r}. Merge mode should be one of {self.MERGES}")
        if not hasattr(layer, "go_backwards"):
            raise ValueError(f"Bidirectional wraps a recurrent layer (one with go_backwards); received {layer!r}")
        super().__init__(layer, **kwargs)
        forward = layer.get_config()
        backward = backward_layer.get_config() if backward_layer is not None else \
            dict(forward, go_backwards=not forward["go_backwards"])
        self.forward_layer = type(layer).from_config(dict(forward, name="forward_" + forward["name"]))
        self.backward_layer = type(backward_layer or layer).from_config(
            dict(backward, name="backward_" + backward["name"]))
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state
        self.supports_masking = True
        self._initial_weights = weights

    def build(self, input_shape):
        graph = get_default_graph()
        for layer in (self.forward_layer, self.backward_layer):
            with graph.name_scope(layer.name):
                layer.build(input_shape)
                layer.built = True
        self.built = True

    @property
    def trainable_weights(self):
        return self.forward_layer.trainable_weights + self.backward_layer.trainable_weights \
            if self.trainable else []

    @property
    def non_trainable_weights(self):
        layers = (self.forward_layer, self.backward_layer)
        return [w for layer in layers for w in (layer.non_trainable_weights if self.trainable else layer.weights)]

    @property
    def losses(self):
        return list(self._losses) + self.forward_layer.losses + self.backward_layer.losses

    def compute_output_shape(self, input_shape):
        shape = self.forward_layer.compute_output_shape(input_shape)
        states = []
        if self.return_state:
            shape, states = shape[0], shape[1:] * 2
        if self.merge_mode == "concat":
            shape = tuple(shape[:-1]) + (shape[-1] * 2,)
        shapes = [shape, shape] if self.merge_mode is None else [shape]
        return shapes + states if len(shapes) + len(states) > 1 else shape

    def compute_mask(self, inputs, mask):
        mask = mask[0] if isinstance(mask, list) else mask
        output_mask = mask if self.return_sequences else None
        masks = [output_mask, output_mask] if self.merge_mode is None else [output_mask]
        n_states = 2 * len(to_list(self.forward_layer.cell.state_size)) if self.return_state else 0
        return masks + [None] * n_states if len(masks) + n_states > 1 else output_mask

    def call(self, inputs, training=None, mask=None, initial_state=None):
        states = to_list(initial_state) if initial_state is not None else None
        half = len(states) // 2 if states else 0
        y = _call(self.forward_layer, inputs, training=training, mask=mask,
                  initial_state=states[:half] if states else None)
        y_rev = _call(self.backward_layer, inputs, training=training, mask=mask,
                      initial_state=states[half:] if states else None)
        states = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = reverse(y_rev, [1])
        if self.merge_mode == "concat":
            output = [K.concatenate([y, y_rev])]
        elif self.merge_mode == "sum":
            output = [y + y_rev]
        elif self.merge_mode == "ave":
            output = [(y + y_rev) / 2]
        elif self.merge_mode == "mul":
            output = [y * y_rev]
        else:
            output = [y, y_rev]
        output += states
        return output if len(output) > 1 else output[0]

    def get_config(self):
        return dict(super().get_config(), merge_mode=self.merge_mode)
