"""Cells made of cells: MultiRNNCell stacks them; DropoutWrapper, ResidualWrapper and DeviceWrapper wrap one.

A wrapper opens no variable scope of its own (as in TF1), so wrapping a cell leaves its variable names, and thus
checkpoints, unchanged. MultiRNNCell does: layer i's variables live under <scope>/multi_rnn_cell/cell_<i>/.
"""
import hashlib
import itertools
import numbers

from ..framework.tensor import Tensor
from ..framework.graph_wrappers import device, name_scope
from ..ops import nest
from ..ops.array_ops import concat
from ..ops.core_ops import convert_to_tensor
from ..ops.cwise_ops import floor
from ..ops.dropout_ops import dropout
from ..ops.random_ops import random_uniform
from ..ops.stack_ops import split
from ..ops.tensor_util import constant_value
from .cells import LSTMStateTuple, RNNCell, assert_like_rnncell, loop_step, size_dims, steps_unrolled
from ..ops.scopes import variable_scope
from ..framework.tensor_shape import TensorShape


class MultiRNNCell(RNNCell):
    """Cells applied in sequence at each step: cell i's output is cell i+1's input; the state is one per cell."""

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        cells = list(cells)
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell")
        for i, cell in enumerate(cells):
            assert_like_rnncell(f"cells[{i}]", cell)
        if not state_is_tuple and any(nest.flatten(c.state_size)[1] is not None for c in cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is not set. State "
                             f"sizes are: {[c.state_size for c in cells]!r}; pass state_is_tuple=True")
        self._cells, self._state_is_tuple = cells, state_is_tuple

    @property
    def state_size(self):
        sizes = tuple(cell.state_size for cell in self._cells)
        return sizes if self._state_is_tuple else sum(sizes)

    @property
    def output_size(self):
        return self._cells[-1].output_size

    def zero_state(self, batch_size, dtype):
        if not self._state_is_tuple:
            return super().zero_state(batch_size, dtype)
        with name_scope(f"{type(self).__name__}ZeroState"):
            return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)

    @property
    def runs_sequences(self):
        return self._state_is_tuple and all(getattr(cell, "runs_sequences", False) for cell in self._cells)

    def call_sequence(self, inputs, state):
        """Cell after cell over the whole sequence: cell i's outputs at every step are cell i+1's inputs."""
        return self(inputs, state, sequence=True)

    def call(self, inputs, state, sequence=False):
        if self._state_is_tuple:
            if not isinstance(state, (tuple, list)) or len(state) != len(self._cells):
                raise ValueError(f"Expected state to be a tuple of length {len(self._cells)}, but received: "
                                 f"{state!r}")
            states = state
        else:
            states = split(state, [cell.state_size for cell in self._cells], axis=1)
        new_states = []
        for i, (cell, cell_state) in enumerate(zip(self._cells, states)):
            with variable_scope(f"cell_{i}"):
                inputs, new_state = cell.call_sequence(inputs, cell_state) if sequence else cell(inputs, cell_state)
            new_states.append(new_state)
        return inputs, (tuple(new_states) if self._state_is_tuple else concat(new_states, 1))


class _Wrapper(RNNCell):
    """A cell around `cell` that keeps its sizes and zero state and adds no variable scope."""

    def __init__(self, cell):
        super().__init__()
        assert_like_rnncell("cell", cell)
        self.cell = cell

    wrapped_cell = property(lambda self: self.cell)
    state_size = property(lambda self: self.cell.state_size)
    output_size = property(lambda self: self.cell.output_size)

    def zero_state(self, batch_size, dtype):
        with name_scope(f"{type(self).__name__}ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        return self._call_wrapped_cell(inputs, state, scope)


class ResidualWrapper(_Wrapper):
    """output = inputs + cell's output (or residual_fn(inputs, output)); the state is the cell's."""

    def __init__(self, cell, residual_fn=None):
        super().__init__(cell)
        self._residual_fn = residual_fn or (lambda i, o: nest.pack(nest.flatten(o)[1], [
            a + b for a, b in zip(nest.flatten(i)[0], nest.flatten(o)[0])]))

    def _call_wrapped_cell(self, inputs, state, scope):
        output, new_state = self.cell(inputs, state, scope=scope)
        return self._residual_fn(inputs, output), new_state


class DeviceWrapper(_Wrapper):
    """Runs the cell's ops (and its zero state) under tg.device(device)."""

    def __init__(self, cell, device):  # noqa: A002 - TF1's name
        super().__init__(cell)
        self._device = device

    def zero_state(self, batch_size, dtype):
        with device(self._device):
            return super().zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs, state, scope):
        with device(self._device):
            return self.cell(inputs, state, scope=scope)


def _keep_lstm_c(substate):
    """TF1's default state filter: an LSTM's cell state c is never dropped, its output h is."""
    return LSTMStateTuple(c=False, h=True) if isinstance(substate, LSTMStateTuple) else True


def _nested(x):
    return isinstance(x, (tuple, list)) and not isinstance(x, TensorShape)


def _rebuild(like, items):
    return type(like)(*items) if hasattr(like, "_fields") else type(like)(items)


def _shallow(visitor, value):
    """Which parts of `value` to drop: bools, as deep as `visitor` asks (TF1's traverse shallow structure)."""
    decision = visitor(value)
    if decision is True and _nested(value):
        return _rebuild(value, [_shallow(visitor, v) for v in value])
    return decision


def _map_up_to(shallow, fn, *structures):
    """fn(index, leaf of shallow, matching parts of structures...) at each leaf of `shallow`, numbered in order."""
    counter = itertools.count()

    def walk(s, *parts):
        if not _nested(s):
            return fn(next(counter), s, *parts)
        return _rebuild(s, [walk(*children) for children in zip(s, *parts)])
    return walk(shallow, *structures)


class DropoutWrapper(_Wrapper):
    """Dropout on the cell's inputs, outputs and state; each keep probability may be a float or a scalar Tensor.

    With variational_recurrent=True one mask per wrapper, shared by every time step and every example of the
    batch (TF1's [1, size] noise), is drawn each run (Gal & Ghahramani).

    Around a cell that runs whole sequences (the LSTM cells' BlockLSTM) and with no dropout on the state, dynamic_rnn
    and static_rnn run it over every step at once too: the inputs' dropout over the whole input sequence, then the
    cell's one op, then the outputs' dropout over the whole output sequence. As step by step, each element of a step
    has its own mask (variational: each feature), and the steps' masks are TF1's: in dynamic_rnn's loop one op draws a
    new one at each step; in static_rnn an op per step draws one, the same at every step where the wrapper has a seed.
    """

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None):
        super().__init__(cell)
        with name_scope("DropoutWrapperInit"):
            for attr, prob in (("input_keep_prob", input_keep_prob), ("state_keep_prob", state_keep_prob),
                               ("output_keep_prob", output_keep_prob)):
                known = constant_value(prob) if isinstance(prob, Tensor) else prob
                if known is None:
                    setattr(self, f"_{attr}", convert_to_tensor(prob))
                    continue
                if not 0 <= float(known) <= 1:
                    raise ValueError(f"Parameter {attr} must be between 0 and 1: {float(known)!r}")
                setattr(self, f"_{attr}", float(known))
        self._seed, self._variational_recurrent = seed, variational_recurrent
        self._state_filter = dropout_state_filter_visitor or _keep_lstm_c
        self._noise = {}
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")
            with name_scope("DropoutWrapperInit"):
                if not isinstance(self._input_keep_prob, numbers.Real) or self._input_keep_prob < 1.0:
                    if input_size is None:
                        raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                         "input_size must be provided")
                    self._noise["input"] = self._batch_noise("input", input_size, dtype)
                self._noise["state"] = self._batch_noise("state", cell.state_size, dtype)
                self._noise["output"] = self._batch_noise("output", cell.output_size, dtype)

    def _gen_seed(self, salt_prefix, index, step=None):
        """TF1's per-part seed: the first 32 bits of md5(seed + salt), so each part draws its own mask. Step k > 0 of
        dynamic_rnn's unrolled steps salts it with k: TF1's one op in its loop draws anew at each step."""
        if self._seed is None:
            return None
        if step:
            salt_prefix = f"{salt_prefix}@{step}"
        digest = hashlib.md5(f"{self._seed}{salt_prefix}_{index}".encode("utf-8")).hexdigest()
        return int(digest[:8], 16) & 0x7FFFFFFF

    def _batch_noise(self, salt, sizes, dtype):
        return _map_up_to(sizes, lambda i, s: random_uniform([1, *size_dims(s)], dtype=dtype,
                                                             seed=self._gen_seed(salt, i)))

    def _dropout(self, values, salt, keep_prob, shallow=None, sequence=False, step=None):
        """Dropout on `values`: one step's (dynamic_rnn's unrolled `step`, where given), or with `sequence` a
        time-major sequence's."""
        shallow = values if shallow is None else shallow

        def drop(i, do_drop, value, noise=None):
            if do_drop is False:
                return value
            if noise is None:
                # static_rnn's per-step ops of one seed draw one mask, the first axis's steps share it
                shared = sequence and self._seed is not None and steps_unrolled() and bool(value.ndim)
                return dropout(value, keep_prob, seed=self._gen_seed(salt, i, step),
                               noise_shape=[1] + [None] * (value.ndim - 1) if shared else None)
            out = value / keep_prob * floor(keep_prob + noise)
            out.set_shape(value.shape)
            return out
        if self._variational_recurrent:
            return _map_up_to(shallow, drop, values, self._noise[salt])
        return _map_up_to(shallow, drop, values)

    @property
    def runs_sequences(self):
        """Whether every step can run at once: the cell can, and no state is dropped between steps."""
        return (getattr(self.cell, "runs_sequences", False) and isinstance(self._state_keep_prob, float)
                and self._state_keep_prob == 1.0)

    def call_sequence(self, inputs, state):
        """The cell's call_sequence between the dropout of its whole input and of its whole output sequence."""
        if not isinstance(self._input_keep_prob, float) or self._input_keep_prob < 1:
            inputs = self._dropout(inputs, "input", self._input_keep_prob, sequence=True)
        outputs, states = self.cell.call_sequence(inputs, state)
        if not isinstance(self._output_keep_prob, float) or self._output_keep_prob < 1:
            outputs = self._dropout(outputs, "output", self._output_keep_prob, sequence=True)
        return outputs, states

    def _call_wrapped_cell(self, inputs, state, scope):
        step = loop_step(self)
        if not isinstance(self._input_keep_prob, float) or self._input_keep_prob < 1:
            inputs = self._dropout(inputs, "input", self._input_keep_prob, step=step)
        output, new_state = self.cell(inputs, state, scope=scope)
        if not isinstance(self._state_keep_prob, float) or self._state_keep_prob < 1:
            shallow = _shallow(self._state_filter, new_state)
            new_state = self._dropout(new_state, "state", self._state_keep_prob, shallow, step=step)
        if not isinstance(self._output_keep_prob, float) or self._output_keep_prob < 1:
            output = self._dropout(output, "output", self._output_keep_prob, step=step)
        return output, new_state
