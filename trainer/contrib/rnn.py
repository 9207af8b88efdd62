"""tf.contrib.rnn: TF1's core cells and static RNNs under their contrib names, and the block cells.

The core names are the very objects of tg.nn.rnn_cell and tg.nn (TF1 moved them from contrib to core). The
"block" cells were TF1's fused kernels for the same math: LSTMBlockCell computes LSTMCell's gates with the same
variables (kernel, bias, and w_i_diag/w_f_diag/w_o_diag peepholes, scope "lstm_cell"); GRUBlockCellV2 is GRUCell
with GRUCell's variable names; GRUBlockCell is GRUCell's math with the block kernel's own variable names.
"""
from ..ops.array_ops import concat
from ..rnn.rnn import bidirectional_dynamic_rnn, static_bidirectional_rnn, static_rnn
from ..rnn.cells import BasicLSTMCell, BasicRNNCell, GRUCell, LSTMCell, LSTMStateTuple, RNNCell
from ..rnn.wrappers import DeviceWrapper, DropoutWrapper, MultiRNNCell, ResidualWrapper
from ..ops.initializers import constant_initializer
from ..ops.scopes import variable_scope
from ..unsupported import missing_names

__all__ = ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUBlockCell", "GRUBlockCellV2",
           "GRUCell", "LSTMBlockCell", "LSTMCell", "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper",
           "stack_bidirectional_dynamic_rnn", "stack_bidirectional_rnn", "static_bidirectional_rnn", "static_rnn"]


class LSTMBlockCell(LSTMCell):
    """TF1's fused LSTM cell: LSTMCell's math and variables; peepholes with use_peephole, no projection."""

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False, reuse=None, dtype=None,
                 name="lstm_cell"):
        # The block kernel clips only for cell_clip > 0 (None means -1 there: no clipping).
        clip = cell_clip if cell_clip is not None and cell_clip > 0 else None
        super().__init__(num_units, use_peepholes=use_peephole, cell_clip=clip, forget_bias=forget_bias,
                         reuse=reuse, name=name, dtype=dtype)


class GRUBlockCellV2(GRUCell):
    """TF1's fused GRU cell with GRUCell's variable names (gates/kernel, gates/bias, candidate/...)."""

    def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
        super().__init__(_num_units(num_units, cell_size), reuse=reuse, name=name)


class GRUBlockCell(GRUBlockCellV2):
    """TF1's first fused GRU cell: GRUCell's math, its variables named as the block kernel's inputs.

    As in TF1, the [depth + n, 2n] gate kernel is named w_c and the [depth + n, n] candidate kernel w_ru;
    the biases are b_ru (gates, starting at 1.0) and b_c (candidate, starting at 0.0).
    """

    def build(self, inputs_shape):
        if not inputs_shape or inputs_shape[-1] is None:
            raise ValueError(f"GRUBlockCell {self.name!r}: expected inputs.shape[-1] to be known, saw shape: "
                             f"{inputs_shape}; give the inputs a static last dimension")
        depth, n = inputs_shape[-1], self._num_units
        # GRUCell.call reads these four attributes.
        self._gate_kernel = self.add_variable("w_c", [depth + n, 2 * n])
        self._gate_bias = self.add_variable("b_ru", [2 * n], initializer=constant_initializer(1.0))
        self._candidate_kernel = self.add_variable("w_ru", [depth + n, n])
        self._candidate_bias = self.add_variable("b_c", [n], initializer=constant_initializer(0.0))


def _num_units(num_units, cell_size):
    if (num_units is None) == (cell_size is None):
        raise ValueError(f"Exactly one of num_units or cell_size must be provided, got num_units={num_units!r}, "
                         f"cell_size={cell_size!r}")
    return num_units if num_units is not None else cell_size


def _check_stacks(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list) or not isinstance(cells_bw, list):
        raise ValueError(f"cells_fw and cells_bw must be lists of RNNCells, got {cells_fw!r} and {cells_bw!r}")
    if len(cells_fw) != len(cells_bw):
        raise ValueError(f"Forward and Backward cells must have the same depth, got {len(cells_fw)} and "
                         f"{len(cells_bw)}")
    for name, states in (("initial_states_fw", initial_states_fw), ("initial_states_bw", initial_states_bw)):
        if states is not None and (not isinstance(states, (list, tuple)) or len(states) != len(cells_fw)):
            raise ValueError(f"{name} must be a list or tuple of one state per cell ({len(cells_fw)}), got "
                             f"{states!r}")


def _nth(states, i):
    return states[i] if states else None


def stack_bidirectional_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None, initial_states_bw=None, dtype=None,
                            sequence_length=None, scope=None):
    """Bidirectional static RNNs stacked: layer i reads layer i-1's concatenated outputs; variables under
    <scope or stack_bidirectional_rnn>/cell_<i>/{fw,bw}. Returns (outputs, states_fw,
    states_bw), the states one per layer."""
    _check_stacks(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw, layer = [], [], inputs
    with variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with variable_scope(f"cell_{i}") as cell_scope:
                layer, state_fw, state_bw = static_bidirectional_rnn(
                    cell_fw, cell_bw, layer, initial_state_fw=_nth(initial_states_fw, i),
                    initial_state_bw=_nth(initial_states_bw, i), sequence_length=sequence_length, dtype=dtype,
                    scope=cell_scope)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None, initial_states_bw=None,
                                    dtype=None, sequence_length=None, parallel_iterations=None, time_major=False,
                                    scope=None, swap_memory=False):
    """bidirectional_dynamic_rnn layers stacked, each reading the previous layer's outputs concatenated on the
    depth axis; returns (outputs, states_fw, states_bw)."""
    _check_stacks(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw, layer = [], [], inputs
    with variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with variable_scope(f"cell_{i}"):
                outputs, (state_fw, state_bw) = bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, layer, initial_state_fw=_nth(initial_states_fw, i),
                    initial_state_bw=_nth(initial_states_bw, i), sequence_length=sequence_length,
                    parallel_iterations=parallel_iterations, dtype=dtype, swap_memory=swap_memory,
                    time_major=time_major)
                layer = concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)

__getattr__ = missing_names(__name__, have=f"tf.contrib.rnn here has {', '.join(__all__)}")
