"""TF1's RNN cells (tf.nn.rnn_cell): one time step of a recurrent network, its variables made on the first call.

A cell is a tf.layers Layer: its variables live in a scope named after the class ("basic_lstm_cell",
"gru_cell", ...) inside the caller's scope ("rnn" for static_rnn and dynamic_rnn), made on the first call and
reused by every later time step, so names and shapes line up with TF1 checkpoints.
"""
import collections
import contextlib
import contextvars
import numbers

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph_wrappers import name_scope
from ..ops.initializers import constant_initializer, zeros_initializer
from ..layers.base import Layer
from ..ops import nest
from ..ops.array_ops import cast, concat, shape, zeros
from ..ops.block_lstm_ops import block_lstm
from ..ops.clip_ops import clip_by_value
from ..ops.core_ops import constant, convert_to_tensor
from ..ops.fill_ops import fill
from ..ops.math_ops import matmul
from ..ops.nn_ops import bias_add, sigmoid, tanh
from ..ops.rnn_ops import gru_block_cell, lstm_block_cell
from ..ops.stack_ops import split, stack
from ..ops.tensor_util import constant_value, static_shape
from ..ops.scopes import variable_scope
from ..framework.tensor_shape import TensorShape


_UNROLLED = contextvars.ContextVar("unrolled", default=None)


@contextlib.contextmanager
def unrolled_steps(loop=False):
    """While static_rnn builds a cell's ops for each step or runs its call_sequence over them, or, with `loop`, while
    dynamic_rnn unrolls a time dimension known while building. TF1 builds static_rnn's ops once per step, so random
    ops with one explicit seed draw the same values at every step; dynamic_rnn's loop runs one op, which draws anew at
    each step."""
    token = _UNROLLED.set({"loop": loop, "calls": {}})
    try:
        yield
    finally:
        _UNROLLED.reset(token)


def steps_unrolled():
    """Whether static_rnn's per-step ops are building (unrolled_steps without `loop`)."""
    state = _UNROLLED.get()
    return state is not None and not state["loop"]


def loop_step(owner):
    """How many steps `owner` (a cell) has built before this one in dynamic_rnn's unrolled loop; None outside one."""
    state = _UNROLLED.get()
    if state is None or not state["loop"]:
        return None
    step = state["calls"].get(id(owner), 0)
    state["calls"][id(owner)] = step + 1
    return step


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """An LSTM's state: the cell state `c` and the output `h`, in that order."""
    __slots__ = ()

    @property
    def dtype(self):
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent internal state: c is {c.dtype} but h is {h.dtype}")
        return c.dtype


def size_dims(size):
    """A state_size/output_size leaf (an int or a TensorShape) as a list of ints."""
    return TensorShape(size).as_list() if isinstance(size, TensorShape) else [int(size)]


def zeros_for(batch_size, size, dtype):
    """Zeros of shape [batch_size] + size; batch_size may be an int or a scalar int Tensor (e.g. tg.shape(x)[0])."""
    dims = size_dims(size)
    known = constant_value(batch_size) if isinstance(batch_size, Tensor) else batch_size
    if known is not None:
        return zeros([int(known), *dims], dtype=dtype)
    out = fill(stack([batch_size, *[constant(d, dtype=dtypes.int32) for d in dims]]), constant(0, dtype=dtype))
    out.set_shape([None, *dims])
    return out


def assert_like_rnncell(name, cell):
    """TypeError unless `cell` has what static_rnn/dynamic_rnn and the wrappers use."""
    missing = [f"'{attr}' property is missing" for attr in ("output_size", "state_size") if not hasattr(cell, attr)]
    if not hasattr(cell, "zero_state"):
        missing.append("'zero_state' method is missing")
    if not callable(cell):
        missing.append("is not callable")
    if missing:
        raise TypeError(f"The argument {name!r} ({cell!r}) is not an RNNCell: {', '.join(missing)}")


class RNNCell(Layer):
    """Base of the cells: subclasses give state_size, output_size and call(inputs, state) -> (output, new_state)."""

    def __init__(self, trainable=True, name=None, dtype=None, reuse=None, **kwargs):
        super().__init__(trainable=trainable, name=name, dtype=dtype, _reuse=reuse, **kwargs)

    def __call__(self, inputs, state, scope=None, **kwargs):
        """One step. `scope` (first call only, as in TF1) puts the variables directly in that scope."""
        if scope is not None and self._scope is None:
            with variable_scope(scope, reuse=self._reuse) as captured:
                self._scope = captured
        return super().__call__(inputs, state, **kwargs)

    @property
    def runs_sequences(self):
        """Whether call_sequence runs every step at once; when False (the default), dynamic_rnn and static_rnn
        unroll the cell step by step."""
        return False

    def call_sequence(self, inputs, state):
        """Every step at once over time-major `inputs` [time, batch, depth], as TF1's fused cells run: (outputs
        [time, batch, output_size], the state after each step, each leaf [time, batch, size])."""
        raise NotImplementedError(f"{type(self).__name__} runs one step at a time (its runs_sequences is False): "
                                  "call it once per step")

    @property
    def state_size(self):
        """The size of the state: an int, a TensorShape, or a nested structure of them."""
        raise NotImplementedError(f"{type(self).__name__} must define the state_size property")

    @property
    def output_size(self):
        """The size of the output: an int, a TensorShape, or a nested structure of them."""
        raise NotImplementedError(f"{type(self).__name__} must define the output_size property")

    def zero_state(self, batch_size, dtype):
        """The state filled with zeros, shaped [batch_size, size] for each leaf of state_size."""
        leaves, structure = nest.flatten(self.state_size)
        with name_scope(f"{type(self).__name__}ZeroState"):
            return nest.pack(structure, [zeros_for(batch_size, s, dtype) for s in leaves])

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """zero_state for the batch size and dtype of `inputs` (or the given ones)."""
        if inputs is not None:
            first = convert_to_tensor(nest.flatten(inputs)[0][0])
            batch_size = batch_size_of(first, 0)
            dtype = dtype or first.dtype
        return self.zero_state(batch_size, dtype)

    def __repr__(self):
        return f"<tg.nn.rnn_cell.{type(self).__name__} {self.name!r}>"


def batch_size_of(x, axis):
    """The size of x's batch `axis`: an int where the static shape knows it, else a scalar int32 Tensor."""
    static = static_shape(x)
    if static is not None and static[axis] is not None:
        return static[axis]
    return shape(x)[axis]


def _fusable(activation, forget_bias=0.0, cell_clip=None):
    """Whether a cell's step can be one fused op (ops/rnn_ops.py): its activation is tanh, its forget bias a
    number and its cell clip None or a positive number (clipping to 0 is the fused op's "no clipping")."""
    clip_ok = cell_clip is None or (isinstance(cell_clip, numbers.Real) and cell_clip > 0)
    return activation is tanh and isinstance(forget_bias, numbers.Real) and clip_ok


def _lstm_op(cell, inputs, c, h, peepholes, cell_clip, sequence):
    """(cs, h) of one fused step of an LSTM cell or, with `sequence`, of every step over time-major inputs."""
    options = dict(forget_bias=cell._forget_bias, cell_clip=cell_clip, use_peephole=peepholes is not None)
    weights = (cell._kernel, *(peepholes or (None,) * 3), cell._bias)
    if sequence:
        known = static_shape(inputs)[0]
        steps = constant(known, dtype=dtypes.int64) if known is not None else cast(shape(inputs)[0], dtypes.int64)
        return block_lstm(steps, inputs, c, h, *weights, **options)[1::5]
    return lstm_block_cell(inputs, c, h, *weights, **options)[1::5]  # (i, cs, f, o, ci, co, h)


def _input_depth(cell, inputs_shape):
    if not inputs_shape or inputs_shape[-1] is None:
        raise ValueError(f"{type(cell).__name__} {cell.name!r}: expected inputs.shape[-1] to be known, saw shape: "
                         f"{inputs_shape}; give the inputs a static last dimension")
    return inputs_shape[-1]


class BasicRNNCell(RNNCell):
    """output = new_state = activation(W [inputs, state] + b)."""

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units, self._activation = int(num_units), activation or tanh

    state_size = output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = _input_depth(self, inputs_shape)
        self._kernel = self.add_variable("kernel", [depth + self._num_units, self._num_units])
        self._bias = self.add_variable("bias", [self._num_units], initializer=zeros_initializer())

    def call(self, inputs, state):
        output = self._activation(bias_add(matmul(concat([inputs, state], 1), self._kernel), self._bias))
        return output, output


class BasicLSTMCell(RNNCell):
    """The LSTM of Zaremba et al.: no peepholes, no projection; forget_bias is added to the forget gate."""

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units, self._forget_bias = int(num_units), forget_bias
        self._state_is_tuple, self._activation = state_is_tuple, activation or tanh

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = _input_depth(self, inputs_shape)
        self._kernel = self.add_variable("kernel", [depth + self._num_units, 4 * self._num_units])
        self._bias = self.add_variable("bias", [4 * self._num_units], initializer=zeros_initializer())

    runs_sequences = property(lambda self: _fusable(self._activation, self._forget_bias))

    def call_sequence(self, inputs, state):
        """TF1's BlockLSTM over every step (the op of TF1's LSTMBlockFusedCell)."""
        return self(inputs, state, sequence=True)

    def call(self, inputs, state, sequence=False):
        c, h = state if self._state_is_tuple else split(state, 2, axis=-1)
        if _fusable(self._activation, self._forget_bias):
            new_c, new_h = _lstm_op(self, inputs, c, h, None, None, sequence)
        else:
            gates = bias_add(matmul(concat([inputs, h], 1), self._kernel), self._bias)
            i, j, f, o = split(gates, 4, axis=1)  # TF1's gate order: input, new input, forget, output
            forget_bias = constant(self._forget_bias, dtype=f.dtype)
            new_c = c * sigmoid(f + forget_bias) + sigmoid(i) * self._activation(j)
            new_h = self._activation(new_c) * sigmoid(o)
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else concat([new_c, new_h], -1)
        return new_h, new_state


class LSTMCell(RNNCell):
    """The LSTM with optional peepholes (w_f_diag, w_i_diag, w_o_diag), cell clipping and an output projection."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=None, num_proj_shards=None, forget_bias=1.0, state_is_tuple=True,
                 activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        for arg, value in (("num_unit_shards", num_unit_shards), ("num_proj_shards", num_proj_shards)):
            if value is not None:
                raise NotImplementedError(f"LSTMCell({arg}={value!r}) is not implemented: variables are never "
                                          f"partitioned here (TF1 deprecated it too); pass {arg}=None")
        self._num_units, self._use_peepholes, self._cell_clip = int(num_units), use_peepholes, cell_clip
        self._initializer, self._num_proj, self._proj_clip = initializer, num_proj, proj_clip
        self._forget_bias, self._state_is_tuple, self._activation = forget_bias, state_is_tuple, activation or tanh

    @property
    def state_size(self):
        n, m = self._num_units, self._num_proj or self._num_units
        return LSTMStateTuple(n, m) if self._state_is_tuple else n + m

    output_size = property(lambda self: self._num_proj or self._num_units)

    def build(self, inputs_shape):
        depth, n = _input_depth(self, inputs_shape), self._num_units
        h_depth = self._num_proj or n
        self._kernel = self.add_variable("kernel", [depth + h_depth, 4 * n], initializer=self._initializer)
        self._bias = self.add_variable("bias", [4 * n], initializer=zeros_initializer())
        if self._use_peepholes:
            self._w_f_diag, self._w_i_diag, self._w_o_diag = (
                self.add_variable(name, [n], initializer=self._initializer)
                for name in ("w_f_diag", "w_i_diag", "w_o_diag"))
        if self._num_proj is not None:
            self._proj_kernel = self.add_variable("projection/kernel", [n, self._num_proj],
                                                  initializer=self._initializer)

    @property
    def runs_sequences(self):
        return _fusable(self._activation, self._forget_bias, self._cell_clip) and self._num_proj is None

    def call_sequence(self, inputs, state):
        """TF1's BlockLSTM over every step (the op of TF1's LSTMBlockFusedCell)."""
        return self(inputs, state, sequence=True)

    def call(self, inputs, state, sequence=False):
        n = self._num_units
        c_prev, m_prev = state if self._state_is_tuple else split(state, [n, self._num_proj or n], axis=-1)
        if _fusable(self._activation, self._forget_bias, self._cell_clip):
            peepholes = (self._w_i_diag, self._w_f_diag, self._w_o_diag) if self._use_peepholes else None
            c, m = _lstm_op(self, inputs, c_prev, m_prev, peepholes, self._cell_clip, sequence)
        else:
            c, m = self._unfused_step(inputs, c_prev, m_prev)
        if self._num_proj is not None:
            m = matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = clip_by_value(m, -self._proj_clip, self._proj_clip)
        return m, (LSTMStateTuple(c, m) if self._state_is_tuple else concat([c, m], -1))

    def _unfused_step(self, inputs, c_prev, m_prev):
        gates = bias_add(matmul(concat([inputs, m_prev], 1), self._kernel), self._bias)
        i, j, f, o = split(gates, 4, axis=1)
        f = f + constant(self._forget_bias, dtype=f.dtype)
        if self._use_peepholes:
            f, i = f + self._w_f_diag * c_prev, i + self._w_i_diag * c_prev
        c = sigmoid(f) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            o = o + self._w_o_diag * c
        return c, sigmoid(o) * self._activation(c)


class GRUCell(RNNCell):
    """The GRU of Cho et al. as TF1 computes it: the reset gate scales the state before the candidate matmul."""

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None, bias_initializer=None,
                 name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units, self._activation = int(num_units), activation or tanh
        self._kernel_initializer, self._bias_initializer = kernel_initializer, bias_initializer

    state_size = output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth, n = _input_depth(self, inputs_shape), self._num_units
        # Gate biases start at 1.0 so that, early in training, the cell neither resets nor overwrites its state.
        gate_bias = self._bias_initializer or constant_initializer(1.0)
        self._gate_kernel = self.add_variable("gates/kernel", [depth + n, 2 * n],
                                              initializer=self._kernel_initializer)
        self._gate_bias = self.add_variable("gates/bias", [2 * n], initializer=gate_bias)
        self._candidate_kernel = self.add_variable("candidate/kernel", [depth + n, n],
                                                   initializer=self._kernel_initializer)
        self._candidate_bias = self.add_variable("candidate/bias", [n],
                                                 initializer=self._bias_initializer or zeros_initializer())

    def call(self, inputs, state):
        if _fusable(self._activation):
            new_h = gru_block_cell(inputs, state, self._gate_kernel, self._candidate_kernel, self._gate_bias,
                                   self._candidate_bias)[3]
            return new_h, new_h
        gates = sigmoid(bias_add(matmul(concat([inputs, state], 1), self._gate_kernel), self._gate_bias))
        r, u = split(gates, 2, axis=1)
        candidate = bias_add(matmul(concat([inputs, r * state], 1), self._candidate_kernel), self._candidate_bias)
        new_h = u * state + (1 - u) * self._activation(candidate)
        return new_h, new_h
