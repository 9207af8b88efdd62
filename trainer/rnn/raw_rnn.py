"""TF1's raw_rnn: each step, loop_fn gives the next input, state and emitted output, until every example has
finished. It runs on step_loop (ops/while_loop_ops.py), so gradients flow through it.

TF1 hands the emitted outputs back as a TensorArray; ringflow has no TensorArray, so raw_rnn returns an
EmittedSequence with the TensorArray methods programs call on it (stack, read, size). loop_fn reads its inputs
with tg.gather (or indexing) where TF1 programs read a TensorArray.
"""
from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..ops import nest
from ..ops.array_ops import reshape, shape
from ..ops.core_ops import constant, convert_to_tensor
from ..ops.cwise_ops import logical_not, logical_or
from ..ops.gather_ops import gather
from ..ops.math_ops import where, zeros_like
from ..ops.reduction_ops import reduce_all
from ..ops.scopes import variable_scope
from ..ops.while_loop_ops import step_loop
from .cells import assert_like_rnncell, batch_size_of, zeros_for


class EmittedSequence:
    """raw_rnn's emitted outputs, one per step on axis 0, with the TensorArray methods TF1 programs call."""

    def __init__(self, stacked):
        self._stacked = stacked

    @property
    def dtype(self):
        return self._stacked.dtype

    def stack(self, name=None):
        """Every step's emitted output: [time, batch, ...]."""
        return self._stacked

    def read(self, index, name=None):
        """The output emitted at step `index`."""
        return gather(self._stacked, index, name=name)

    def size(self, name=None):
        """The number of steps that ran."""
        return shape(self._stacked, name=name)[0]


def _copy_through(finished, old, new):
    """TF1's copy-through: `old` for the examples that had finished, `new` for the others (scalars pass as new)."""
    if new.ndim == 0:
        return new
    return where(reshape(finished, [-1] + [1] * (new.ndim - 1)), old, new)


def _relaxed(t):
    """t's shape with any batch size: a loop variable whose batch the next step may know better or worse."""
    return TensorShape([None] + t.shape.as_list()[1:]) if t.ndim else t.shape


def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """Run `cell` as loop_fn(time, cell_output, cell_state, loop_state) -> (finished, next_input, next_cell_state,
    emit_output, next_loop_state) directs, until every example has finished (TF1's tf.nn.raw_rnn).

    Returns (emitted, final_state, final_loop_state); emitted.stack() is [time, batch, ...]. Past an example's
    finish its emitted output is zeros and its state is copied through, as TF1. parallel_iterations and
    swap_memory are accepted and ignored.
    """
    assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"raw_rnn: loop_fn must be a callable, got {loop_fn!r}")
    with variable_scope(scope or "rnn"):
        time = constant(0, dtype=dtypes.int32)
        finished, first_input, state, emit_structure, loop_state = loop_fn(time, None, None, None)
        if state is None:
            raise ValueError("raw_rnn: loop_fn(0, None, None, None) must return the initial cell state as its "
                             "third value (e.g. cell.zero_state(batch_size, dtype))")
        finished = convert_to_tensor(finished)
        if finished.dtype != dtypes.bool:
            raise TypeError(f"raw_rnn: loop_fn's finished must be a bool vector, got {finished!r}")
        inputs, input_layout = nest.flatten(first_input)
        states, state_layout = nest.flatten(state)
        inputs, states = [convert_to_tensor(t) for t in inputs], [convert_to_tensor(t) for t in states]
        if emit_structure is None:
            sizes, emit_layout = nest.flatten(cell.output_size)
            zero_emit = [zeros_for(batch_size_of(inputs[0], 0), size, states[0].dtype) for size in sizes]
        else:
            leaves, emit_layout = nest.flatten(emit_structure)
            zero_emit = [zeros_like(convert_to_tensor(t)) for t in leaves]
        has_loop_state = loop_state is not None
        loop_leaves, loop_layout = nest.flatten(loop_state) if has_loop_state else ([constant(0)], None)
        counts = [len(inputs), len(states)]

        def step(carried, _):
            time, done = carried[0], carried[1]
            current = carried[2:2 + counts[0]]
            old = carried[2 + counts[0]:2 + sum(counts)]
            loop_values = carried[2 + sum(counts):]
            output, cell_state = cell(nest.pack(input_layout, current), nest.pack(state_layout, old))
            given = nest.pack(loop_layout, loop_values) if has_loop_state else None
            next_done, next_input, next_state, emit, next_loop = loop_fn(time + 1, output, cell_state, given)
            emit = nest.flatten(output if emit is None else emit)[0]
            next_state = [_copy_through(done, o, convert_to_tensor(n))
                          for o, n in zip(old, nest.flatten(next_state)[0])]
            next_loop = loop_values if next_loop is None or not has_loop_state else nest.flatten(next_loop)[0]
            return ([time + 1, logical_or(done, next_done), *nest.flatten(next_input)[0], *next_state,
                     *next_loop], [_copy_through(done, z, convert_to_tensor(e)) for z, e in zip(zero_emit, emit)])

        carried = [time, finished, *inputs, *states, *loop_leaves]
        invariants = [TensorShape([]), TensorShape([None])] + [_relaxed(t) for t in inputs + states] + [
            t.shape for t in loop_leaves]
        final, emitted = step_loop(step, carried, cond=lambda c: logical_not(reduce_all(c[1])),
                                   shape_invariants=invariants, name="while")
        final_state = nest.pack(state_layout, final[2 + counts[0]:2 + sum(counts)])
        final_loop = nest.pack(loop_layout, final[2 + sum(counts):]) if has_loop_state else None
        return nest.pack(emit_layout, [EmittedSequence(e) for e in emitted]), final_state, final_loop
