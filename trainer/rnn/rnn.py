"""TF1's recurrent networks: static_rnn, dynamic_rnn and their bidirectional forms.

dynamic_rnn unrolls the time steps in the graph when their number is known while building (one cell call per
step; the outputs keep a static time axis) and otherwise runs a loop over them, as TF1's while_loop (step_loop
in ops/while_loop_ops.py, which has a gradient). A cell with a whole-sequence form (RNNCell.call_sequence: the
LSTM cells, as TF1's BlockLSTM op) runs every step in one op instead, whether the time steps are known or not.
With `sequence_length`, each example's outputs past its length are zeros and its final state is the state at
its last valid step (the initial state for length 0), exactly as TF1 computes them.
"""
import numpy as np

from ..framework import dtypes
from ..ops import nest
from ..ops.array_ops import cast, concat, reshape, shape, transpose
from ..ops.core_ops import constant, convert_to_tensor
from ..ops.fill_ops import fill
from ..ops.gather_ops import gather
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..ops.math_ops import less, maximum, ones_like, where, zeros_like
from ..ops.reverse_ops import reverse, reverse_sequence
from ..ops.scan_ops import cumsum
from ..ops.stack_ops import stack, unstack
from ..ops.tensor_util import static_shape
from ..ops.while_loop_ops import step_loop
from .cells import assert_like_rnncell, batch_size_of, unrolled_steps
from ..ops.scopes import variable_scope


def _sequence_length(sequence_length):
    if sequence_length is None:
        return None
    lengths = convert_to_tensor(sequence_length)
    if lengths.ndim not in (None, 1):
        raise ValueError(f"sequence_length must be a vector of length batch_size, but saw shape: {lengths.shape} "
                         f"({lengths.name!r})")
    return lengths if lengths.dtype == dtypes.int32 else cast(lengths, dtypes.int32, name="sequence_length")


def _initial_state(cell, initial_state, dtype, batch_size, caller):
    if initial_state is not None:
        return initial_state
    if dtype is None:
        raise ValueError(f"{caller}: if there is no initial_state, you must give a dtype")
    return cell.zero_state(batch_size, dtype)


def _masked(valid, new, old):
    """`new` for examples still within their length, `old` for the others, leaf by leaf."""
    new_leaves, structure = nest.flatten(new)
    old_leaves = nest.flatten(old)[0]
    picked = [where(reshape(valid, [-1] + [1] * (n.ndim - 1)), n, o) for n, o in zip(new_leaves, old_leaves)]
    return nest.pack(structure, picked)


def _unroll(cell, step_inputs, state, lengths, varscope):
    """Call the cell once per step; past an example's length its output is zero and its state is held."""
    outputs = []
    for t, inputs in enumerate(step_inputs):
        if t > 0:
            varscope.reuse_variables()  # one set of variables for every step (cells that call get_variable too)
        output, new_state = cell(inputs, state)
        if lengths is not None:
            valid = less(constant(t, dtype=dtypes.int32), lengths)
            zeros = nest.pack(nest.flatten(output)[1], [zeros_like(o) for o in nest.flatten(output)[0]])
            output, new_state = _masked(valid, output, zeros), _masked(valid, new_state, state)
        outputs.append(output)
        state = new_state
    return outputs, state


def _looped(cell, step_inputs, structure, state, lengths):
    """_unroll's computation over time-major inputs whose number of steps is known only when running: a loop
    (step_loop) calls the cell once per step; returns (outputs stacked on axis 0, final state)."""
    state_leaves, state_layout = nest.flatten(state)
    state_leaves = [convert_to_tensor(leaf) for leaf in state_leaves]
    out_layout = []

    def step(carried, slices):
        time, old = carried[0], nest.pack(state_layout, carried[1:])
        output, new_state = cell(nest.pack(structure, slices), old)
        if lengths is not None:
            valid = less(time, lengths)
            zeros = nest.pack(nest.flatten(output)[1], [zeros_like(o) for o in nest.flatten(output)[0]])
            output, new_state = _masked(valid, output, zeros), _masked(valid, new_state, old)
        out_leaves, layout = nest.flatten(output)
        out_layout[:] = [layout]
        return [time + 1] + nest.flatten(new_state)[0], out_leaves

    # The batch may be known in the state and not in the inputs (or the reverse): let it vary.
    invariants = [TensorShape([])] + [TensorShape([None] + leaf.shape.as_list()[1:] if leaf.ndim else None)
                                      for leaf in state_leaves]
    carried, outputs = step_loop(step, [constant(0, dtype=dtypes.int32)] + state_leaves, step_inputs,
                                 shape_invariants=invariants)
    return nest.pack(out_layout[0], outputs), nest.pack(state_layout, carried[1:])


def _whole_sequence(cell, inputs, state, lengths):
    """(outputs, final state) from the cell's call_sequence over time-major inputs, with dynamic_rnn's
    sequence_length semantics; None where the cell runs one step at a time."""
    if not getattr(cell, "runs_sequences", False):
        return None
    outputs, states = cell.call_sequence(inputs, state)
    leaves, layout = nest.flatten(states)
    if lengths is None:
        return outputs, nest.pack(layout, [leaf[-1] for leaf in leaves])
    outputs = where(less(_step_index(inputs, 3), reshape(lengths, [1, -1, 1])), outputs, zeros_like(outputs))
    # Each example's state at its last step: row (length - 1) * batch + b of the states seen as [time * batch,
    # size]; the initial state where the length is 0.
    batch = shape(inputs)[1]
    example = cumsum(ones_like(lengths), axis=0) - 1
    rows = maximum(lengths - 1, 0) * batch + example
    started = reshape(less(0, lengths), [-1, 1])
    finals = [where(started, gather(reshape(leaf, [-1, static_shape(leaf)[-1]]), rows), first)
              for leaf, first in zip(leaves, nest.flatten(state)[0])]
    return outputs, nest.pack(layout, finals)


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """Run `cell` over a Python list of per-step inputs [batch, depth]; returns (list of outputs, final state).

    Variables live in variable scope `scope` (default "rnn"), e.g. rnn/basic_lstm_cell/kernel.
    """
    assert_like_rnncell("cell", cell)
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"static_rnn: inputs must be a sequence (a list of per-step tensors), got {inputs!r}")
    if not inputs:
        raise ValueError("static_rnn: inputs must not be empty")
    with variable_scope(scope or "rnn") as varscope:
        first = convert_to_tensor(nest.flatten(inputs[0])[0][0])
        state = _initial_state(cell, initial_state, dtype, batch_size_of(first, 0), "static_rnn")
        lengths = _sequence_length(sequence_length)
        if all(isinstance(x, Tensor) for x in inputs):  # one tensor per step: the cell may run all steps at once
            with unrolled_steps():
                fused = _whole_sequence(cell, stack(list(inputs)), state, lengths)
            if fused is not None:
                return unstack(fused[0]), fused[1]
        return _unroll(cell, inputs, state, lengths, varscope)


def _step_index(x, rank):
    """0, 1, ..., time - 1 along axis 0 of time-major x, shaped [time] + [1] * (rank - 1), int32.

    Built from constants (not tg.range, whose kernel makes host arrays), so it lives on the session's device."""
    steps = static_shape(x)[0]
    if steps is not None:
        return constant(np.arange(steps, dtype=np.int32).reshape([-1] + [1] * (rank - 1)))
    ones = fill(stack([shape(x)[0]] + [constant(1)] * (rank - 1)), constant(1))
    return cumsum(ones, axis=0) - 1


def _time_steps(x, time_axis, caller):
    """x's number of steps along its time axis: an int, or None where it is known only when running."""
    dims = static_shape(x)
    if dims is None or len(dims) < 2:
        raise ValueError(f"{caller}: inputs must have rank at least 2 (time and batch axes), got {x.name!r} "
                         f"of shape {x.shape}")
    if dims[time_axis] == 0:
        raise ValueError(f"{caller}: the inputs {x.name!r} (shape {x.shape}) have no time steps")
    return dims[time_axis]


def _time_major(x, time_major):
    return x if time_major else transpose(x, [1, 0, *range(2, x.ndim)])


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    """Run `cell` over inputs [batch, time, depth] ([time, batch, depth] if time_major); returns (outputs, state).

    outputs are [batch, time, output_size] (time-major if time_major). A time dimension known while building
    is unrolled; an unknown one (a [None, None, depth] placeholder) runs a loop, with gradients either way.
    parallel_iterations and swap_memory (while_loop tuning) are accepted and ignored.
    """
    assert_like_rnncell("cell", cell)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    with variable_scope(scope or "rnn") as varscope:
        leaves, structure = nest.flatten(inputs)
        leaves = [convert_to_tensor(x) for x in leaves]
        steps = [_time_steps(x, time_axis, "dynamic_rnn") for x in leaves]
        if len(set(steps) - {None}) > 1:
            raise ValueError("dynamic_rnn: time steps is not the same for all the elements in the input, got "
                             f"{[(x.name, n) for x, n in zip(leaves, steps)]!r}")
        state = _initial_state(cell, initial_state, dtype, batch_size_of(leaves[0], batch_axis), "dynamic_rnn")
        lengths = _sequence_length(sequence_length)
        if len(leaves) == 1 and leaves[0].ndim == 3:  # one time-major transpose, then maybe one op for all steps
            fused = _whole_sequence(cell, _time_major(leaves[0], time_major), state, lengths)
            if fused is not None:
                return _time_major(fused[0], time_major), fused[1]
        if None in steps:
            outputs, state = _looped(cell, [_time_major(x, time_major) for x in leaves], structure, state, lengths)
            return _map_leaves(lambda o: _time_major(o, time_major), outputs), state
        per_leaf = [unstack(x, axis=time_axis) for x in leaves]
        step_inputs = [nest.pack(structure, list(parts)) for parts in zip(*per_leaf)]
        with unrolled_steps(loop=True):  # TF1's loop: one op per random op, drawing anew at each step
            outputs, state = _unroll(cell, step_inputs, state, lengths, varscope)
        out_structure = nest.flatten(outputs[0])[1]
        by_leaf = zip(*[nest.flatten(o)[0] for o in outputs])
        return nest.pack(out_structure, [stack(list(s), axis=time_axis) for s in by_leaf]), state


def _reverse_sequence(x, lengths, seq_axis, batch_axis):
    """x with each example's first `lengths` steps reversed (all steps when lengths is None); the rest kept."""
    steps = static_shape(x)[seq_axis]
    if steps is None:  # TF1's own ops, which take any number of steps
        return reverse(x, [seq_axis]) if lengths is None else reverse_sequence(x, lengths, seq_axis, batch_axis)
    if lengths is None:
        return gather(x, constant(list(range(steps - 1, -1, -1)), dtype=dtypes.int32), axis=seq_axis)
    features = static_shape(x)[2:]
    if None in features:
        raise NotImplementedError(f"reversing {x.name!r} by sequence_length needs its feature dimensions to be "
                                  f"static, got shape {x.shape}")
    if seq_axis != 0:
        x = transpose(x, [1, 0, *range(2, x.ndim)])
    # Row t*batch + b of x viewed as [time*batch, ...] holds step t of example b: gather picks, for each
    # (t, b), step lengths[b] - 1 - t inside the sequence and step t past its end.
    # The indices are built from constants and `lengths` (not tg.range, whose kernel makes host arrays), so
    # they live on the device that holds lengths.
    batch = shape(x)[1]
    t = constant(np.arange(steps, dtype=np.int32).reshape(steps, 1))
    length = reshape(lengths, [1, -1])
    source = where(less(t, length), length - 1 - t, t)
    example = cumsum(ones_like(length), axis=1) - 1  # 0, 1, ..., batch - 1
    rows = reshape(source * batch + example, [-1])
    out = reshape(gather(reshape(x, [-1, *features]), rows), [steps, -1, *features])
    return transpose(out, [1, 0, *range(2, out.ndim)]) if seq_axis != 0 else out


def _map_leaves(fn, structure):
    leaves, layout = nest.flatten(structure)
    return nest.pack(layout, [fn(leaf) for leaf in leaves])


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None, initial_state_fw=None,
                              initial_state_bw=None, dtype=None, parallel_iterations=None, swap_memory=False,
                              time_major=False, scope=None):
    """dynamic_rnn forward (scope <scope>/fw) and over the reversed sequences (<scope>/bw, default scope
    "bidirectional_rnn"); returns ((output_fw, output_bw), (state_fw, state_bw)), output_bw in input order."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    lengths = _sequence_length(sequence_length)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, lengths, initial_state_fw, dtype,
                                              time_major=time_major, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            reverse = lambda x: _reverse_sequence(convert_to_tensor(x), lengths, time_axis, batch_axis)  # noqa: E731
            reversed_out, state_bw = dynamic_rnn(cell_bw, _map_leaves(reverse, inputs), lengths, initial_state_bw,
                                                 dtype, time_major=time_major, scope=bw_scope)
    return (output_fw, _map_leaves(reverse, reversed_out)), (state_fw, state_bw)


def _reverse_steps(steps, lengths):
    if lengths is None:
        return list(reversed(steps))
    leaves_per_step = [nest.flatten(s)[0] for s in steps]
    layout = nest.flatten(steps[0])[1]
    reversed_leaves = [unstack(_reverse_sequence(stack(list(leaf)), lengths, 0, 1)) for leaf in zip(*leaves_per_step)]
    return [nest.pack(layout, list(parts)) for parts in zip(*reversed_leaves)]


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None, dtype=None,
                             sequence_length=None, scope=None):
    """static_rnn both ways over a list of per-step inputs; returns (outputs, state_fw, state_bw), each output
    the forward and backward outputs of its step concatenated on the depth axis."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise TypeError(f"static_bidirectional_rnn: inputs must be a non-empty list of per-step tensors, got "
                        f"{inputs!r}")
    lengths = _sequence_length(sequence_length)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, lengths, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            reversed_out, state_bw = static_rnn(cell_bw, _reverse_steps(list(inputs), lengths), initial_state_bw,
                                                dtype, lengths, scope=bw_scope)
    output_bw = _reverse_steps(reversed_out, lengths)
    fw_leaves, layout = nest.flatten(output_fw)
    outputs = nest.pack(layout, [concat([f, b], 1) for f, b in zip(fw_leaves, nest.flatten(output_bw)[0])])
    return outputs, state_fw, state_bw
