"""Keras' RNN layer: a cell run over the time axis by K.rnn, and StackedRNNCells.

A cell has state_size (an int or a list), call(inputs, states, training=None) -> (output, new_states) and
build(input_shape) making its weights; the RNN builds it inside its own name scope, so an LSTM's weights read
"lstm/kernel:0" as in TF 1.15's graph-mode Keras. Masked steps keep the states and repeat the previous output.
A cell with fused_sequence (LSTMCell, where its math allows) runs every step in one op when there is no mask.
"""
import numpy as np

from ...ops.array_ops import zeros
from ...ops.core_ops import snapshot
from ...ops.pad_ops import tile
from ...ops.reverse_ops import reverse
from .. import backend as K
from ..backend.rnn import rnn
from ..engine.base_layer import LAYERS, Layer, call_arguments
from ..utils.generic_utils import to_list


def state_sizes(cell):
    return to_list(cell.state_size) if hasattr(cell.state_size, "__len__") else [cell.state_size]


def output_size(cell):
    return getattr(cell, "output_size", None) or state_sizes(cell)[0]


def zeros_for(inputs, size):
    """(batch, size) zeros, the batch taken from the (batch, time, ...) inputs when running."""
    column = K.expand_dims(K.sum(K.zeros_like(inputs), axis=list(range(1, K.ndim(inputs)))), -1)
    return tile(column, [1, size])


def dropout_masks(like, rate, training, count):
    """`count` dropout masks shaped like `like` (ones outside training): one per gate, drawn once per batch and
    used at every step, as Keras' recurrent dropout does."""
    ones = K.ones_like(like)
    return [K.in_train_phase(lambda: K.dropout(ones, rate), ones, training=training) for _ in range(count)]


class AbstractRNNCell(Layer):
    """The base of a cell of one's own: subclasses give state_size, output_size and call(inputs, states) ->
    (output, new states), and make their weights in build(input_shape)."""

    def call(self, inputs, states):
        raise NotImplementedError(f"{type(self).__name__} must define call(inputs, states) -> (output, states)")

    @property
    def state_size(self):
        raise NotImplementedError(f"{type(self).__name__} must define state_size (an int or a list of ints)")

    @property
    def output_size(self):
        raise NotImplementedError(f"{type(self).__name__} must define output_size (an int)")

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """Zeros for each state: (batch, size), the batch from `inputs` (batch, ...) when given."""
        if inputs is not None:
            batch_size, dtype = K.shape(inputs)[0], inputs.dtype
        states = [zeros(K.stack([batch_size, size]), dtype=dtype or K.floatx()) for size in state_sizes(self)]
        return states if hasattr(self.state_size, "__len__") else states[0]


class DropoutRNNCell(Layer):
    """A cell with `dropout` on its inputs and `recurrent_dropout` on its carried output; the RNN draws the
    masks for a batch with start_batch before running the steps."""

    gates = 1

    def start_batch(self, inputs, training=None):
        """Draw this batch's masks; `inputs` are the RNN's (batch, time, ...) inputs (for the batch size)."""
        self.input_masks = dropout_masks(zeros_for(inputs, self.input_dim), self.dropout, training, self.gates) \
            if 0 < self.dropout < 1 else None
        self.recurrent_masks = dropout_masks(zeros_for(inputs, self.units), self.recurrent_dropout, training,
                                             self.gates) if 0 < self.recurrent_dropout < 1 else None


class StackedRNNCells(Layer):
    """Cells run one after the other at each step: each takes the output of the one before."""

    def __init__(self, cells, **kwargs):
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError(f"All cells must have a `call` method and a `state_size` attribute. received "
                                 f"cells: {cells}")
        super().__init__(**kwargs)
        self.cells = list(cells)

    @property
    def state_size(self):
        return [size for cell in self.cells for size in state_sizes(cell)]

    @property
    def output_size(self):
        return output_size(self.cells[-1])

    def build(self, input_shape):
        for cell in self.cells:
            if not cell.built:
                cell.build(input_shape)
                cell.built = True
            input_shape = (input_shape[0], output_size(cell))
        self.built = True

    def start_batch(self, inputs, training=None):
        for cell in self.cells:
            if hasattr(cell, "start_batch"):
                cell.start_batch(inputs, training)

    def call(self, inputs, states, training=None):
        new_states = []
        for cell in self.cells:
            n = len(state_sizes(cell))
            extra = {"training": training} if "training" in call_arguments(cell.call) else {}
            inputs, cell_states = cell.call(inputs, states[:n], **extra)
            states = states[n:]
            new_states.extend(cell_states)
        return inputs, new_states

    @property
    def trainable_weights(self):
        return [w for cell in self.cells for w in cell.trainable_weights] if self.trainable else []

    @property
    def non_trainable_weights(self):
        return [w for cell in self.cells for w in cell.non_trainable_weights]

    @property
    def losses(self):
        return [x for cell in self.cells for x in cell.losses]

    def get_config(self):
        return dict(super().get_config(), cells=[{"class_name": type(c).__name__, "config": c.get_config()}
                                                 for c in self.cells])

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        return cls([cell_from_config(c) for c in config.pop("cells")], **config)


def cell_from_config(spec):
    if spec["class_name"] not in LAYERS:
        raise ValueError(f"Unknown cell: {spec['class_name']}; define the cell class before loading the model")
    return LAYERS[spec["class_name"]].from_config(spec["config"])


class RNN(Layer):
    """RNN(cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False, unroll=False,
    time_major=False): the cell (or a list of cells, stacked) over (batch, time, features) ((time, batch, ...)
    when time_major); the last output, or every output. A stateful layer starts each batch from the states the
    last one ended with, kept in variables of its fixed batch size until reset_states()."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, time_major=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise ValueError(f"`cell` should have a `call` method and a `state_size` attribute; received {cell!r}")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self.stateful, self.unroll, self.time_major = go_backwards, stateful, unroll, time_major
        self.supports_masking = True
        self._states = None  # a stateful layer's state variables, (batch, size) each, made when it is built

    def __call__(self, inputs, initial_state=None, **kwargs):
        """Keras' form: initial_state tensors join the inputs, so a model records and replays them as inputs."""
        if initial_state is None:
            return super().__call__(inputs, **kwargs)
        return super().__call__(to_list(inputs) + to_list(initial_state), **kwargs)

    @property
    def states(self):
        return list(self._states) if self._states is not None else [None] * len(state_sizes(self.cell))

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        batch, features = (input_shape[1], input_shape[2:]) if self.time_major else (input_shape[0], input_shape[2:])
        if not self.cell.built:
            self.cell.build((batch,) + tuple(features))
            self.cell.built = True
        if self.stateful:
            if batch is None:
                raise ValueError(f"If a RNN is stateful, it needs to know its batch size (layer {self.name!r} got "
                                 f"input shape {input_shape}). Specify the batch size of your input tensors: with a "
                                 "Sequential model, pass a `batch_input_shape` argument to your first layer; with "
                                 "the functional API, pass a `batch_shape` argument to your Input layer.")
            self.batch_size = batch
            self.reset_states()
        self.built = True

    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        size = output_size(self.cell)
        batch, steps = (input_shape[1], input_shape[0]) if self.time_major else input_shape[:2]
        shape = (batch, size)
        if self.return_sequences:
            shape = (steps, batch, size) if self.time_major else (batch, steps, size)
        if self.return_state:
            return [shape] + [(batch, s) for s in state_sizes(self.cell)]
        return shape

    def get_initial_state(self, inputs):
        """Zero states for (batch, time, ...) inputs: (batch, size) each."""
        return [zeros_for(inputs, size) for size in state_sizes(self.cell)]

    def state_shapes(self):
        """The shapes of a stateful layer's state variables."""
        return [(self.batch_size, size) for size in state_sizes(self.cell)]

    def compute_mask(self, inputs, mask):
        mask = mask[0] if isinstance(mask, list) else mask
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * len(state_sizes(self.cell)) if self.return_state else output_mask

    def call(self, inputs, mask=None, training=None, initial_state=None, constants=None):
        if isinstance(inputs, list):  # Keras' form of call(inputs, initial_state=...) seen by a model
            inputs, initial_state = inputs[0], inputs[1:] or initial_state
        mask = mask[0] if isinstance(mask, list) else mask
        if self.time_major:  # the steps run batch-major; the outputs go back to (time, batch, ...)
            inputs = K.permute_dimensions(inputs, [1, 0] + list(range(2, K.ndim(inputs))))
        if initial_state is None and self.stateful:
            # copies: the update below writes the variables in place, maybe before the gradients read them
            initial_state = [snapshot(state) for state in self._states]
        steps = K.int_shape(inputs)[1]
        if self.unroll and steps is None:
            raise ValueError("Cannot unroll a RNN if the time dimension is undefined. If using a Sequential model, "
                             "specify the time dimension by passing an `input_shape` or `batch_input_shape` "
                             "argument to your first layer.")
        states = to_list(initial_state) if initial_state is not None else self.get_initial_state(inputs)
        if len(states) != len(state_sizes(self.cell)):
            raise ValueError(f"Layer {self.name} expects {len(state_sizes(self.cell))} states, but it received "
                             f"{len(states)} initial states")
        if hasattr(self.cell, "start_batch"):
            self.cell.start_batch(inputs, training)

        fused = None
        if hasattr(self.cell, "fused_sequence") and mask is None and not self.unroll and not constants:
            time_major = K.permute_dimensions(inputs, [1, 0, 2])
            fused = self.cell.fused_sequence(reverse(time_major, [0]) if self.go_backwards else time_major, states)
        if fused is not None:
            outputs, states = fused
            last, outputs = outputs[-1], K.permute_dimensions(outputs, [1, 0, 2])
        else:
            extra = {"training": training} if "training" in call_arguments(self.cell.call) else {}

            def step(x_t, carried):
                output, new_states = self.cell.call(x_t, carried, **extra)
                return output, to_list(new_states)
            last, outputs, states = rnn(step, inputs, states, go_backwards=self.go_backwards, mask=mask,
                                        constants=constants, unroll=self.unroll, input_length=steps)
        if self.stateful:  # the states carry over to the next batch when the model runs its updates
            self.add_update([K.update(variable, state) for variable, state in zip(self._states, states)])
        if self.time_major:
            outputs = K.permute_dimensions(outputs, [1, 0, 2])
        output = outputs if self.return_sequences else last
        return [output] + list(states) if self.return_state else output

    @property
    def trainable_weights(self):
        return self.cell.trainable_weights if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return self.cell.non_trainable_weights
        return self.cell.trainable_weights + self.cell.non_trainable_weights

    @property
    def losses(self):
        return list(self._losses) + self.cell.losses

    def reset_states(self, states=None):
        """Set a stateful layer's states to zeros, or to `states` (one (batch, size) array per state)."""
        if not self.stateful:
            raise AttributeError(f"Layer {self.name!r} must be stateful to reset its states: pass stateful=True")
        if getattr(self, "batch_size", None) is None:
            raise ValueError(f"Layer {self.name!r} is not built yet: call it on an input with a known batch size "
                             "before resetting its states")
        shapes = self.state_shapes()
        if self._states is None:
            self._states = [K.zeros(shape) for shape in shapes]
        values = [np.zeros(shape) for shape in shapes] if states is None else to_list(states)
        if len(values) != len(shapes):
            raise ValueError(f"Layer {self.name!r} expects {len(shapes)} states, but it received {len(values)} state "
                             f"values. Input received: {states!r}")
        for index, (value, shape) in enumerate(zip(values, shapes)):
            if np.shape(value) != tuple(shape):
                raise ValueError(f"State {index} is incompatible with layer {self.name!r}: expected shape "
                                 f"{tuple(shape)} but got array with shape {np.shape(value)}")
        K.batch_set_value(list(zip(self._states, values)))

    def get_config(self):
        return dict(super().get_config(), return_sequences=self.return_sequences, return_state=self.return_state,
                    go_backwards=self.go_backwards, stateful=self.stateful, unroll=self.unroll,
                    time_major=self.time_major,
                    cell={"class_name": type(self.cell).__name__, "config": self.cell.get_config()})

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if "cell" not in config:  # SimpleRNN, LSTM, GRU, ...: the cell's arguments are the layer's
            return cls(**config)
        return cls(cell_from_config(config.pop("cell")), **config)
