"""Keras' K.rnn: a step function run over the time axis of (batch, time, ...) inputs.

A loop (step_loop, which has a gradient) runs the steps, so the time axis may be unknown while building; with
unroll=True and a known time axis the steps are built one by one instead. Where `mask` (batch, time) is False a
step keeps the states it had and outputs the previous step's output, as Keras 2.2.4-tf does.
"""
from ...framework.tensor_shape import TensorShape
from ...ops.array_ops import cast as tf_cast, reshape as tf_reshape, transpose as tf_transpose
from ...ops.core_ops import convert_to_tensor
from ...ops.math_ops import where, zeros_like
from ...ops.reverse_ops import reverse
from ...ops.stack_ops import stack, unstack
from ...ops.tensor_util import static_shape
from ...ops.while_loop_ops import step_loop


def _time_major(x):
    return tf_transpose(x, [1, 0] + list(range(2, x.shape.ndims)))


def _keep(mask_t, new, old):
    """`new` where the step is valid, `old` elsewhere; mask_t is (batch,) bool."""
    return where(tf_reshape(mask_t, [-1] + [1] * (new.shape.ndims - 1)), new, old)


def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None, unroll=False,
        input_length=None):
    """(last_output, outputs (batch, time, ...), new_states) of `step_function(input_t, states + constants)
    -> (output_t, new_states)` over the time axis of `inputs`."""
    inputs = convert_to_tensor(inputs)
    if inputs.shape.ndims is None or inputs.shape.ndims < 3:
        raise ValueError(f"K.rnn: inputs should be at least 3D (batch, time, ...), got {inputs.name!r} of shape "
                         f"{inputs.shape}")
    constants = list(constants or [])
    states = [convert_to_tensor(s) for s in initial_states]
    steps = _time_major(inputs)
    mask_steps = None
    if mask is not None:
        mask_steps = tf_transpose(tf_cast(mask, "bool") if mask.dtype != "bool" else mask, [1, 0])
    if go_backwards:
        steps = reverse(steps, [0])
        mask_steps = reverse(mask_steps, [0]) if mask_steps is not None else None

    masked = mask_steps is not None

    def step(carried, slices):
        # masked: the previous output rides along first, to be repeated over masked steps
        old = carried[1:] if masked else carried
        output, new = step_function(slices[0], list(old) + constants)
        new = [convert_to_tensor(s) for s in new]
        if masked:
            output = _keep(slices[1], output, carried[0])
            new = [_keep(slices[1], n, o) for n, o in zip(new, old)]
        return ([output] if masked else []) + new, [output]

    def first_carried(x_0):
        if not masked:
            return states
        first, _ = step_function(x_0, states + constants)  # only for the shape of the output to carry
        return [zeros_like(first)] + states

    known = static_shape(steps)[0]
    if unroll and known is not None:
        xs, ms = unstack(steps), unstack(mask_steps) if masked else [None] * known
        carried, outputs = first_carried(xs[0]), []
        for x_t, m_t in zip(xs, ms):
            carried, out = step(carried, [x_t, m_t])
            outputs.append(out[0])
        outputs = stack(outputs)
    else:
        carried = first_carried(steps[0])
        invariants = [TensorShape([None] + t.shape.as_list()[1:]) if t.shape.ndims else TensorShape(None)
                      for t in carried]
        carried, outputs = step_loop(step, carried, [steps] + ([mask_steps] if masked else []),
                                     shape_invariants=invariants)
        outputs = outputs[0]
    last = carried[0] if masked else outputs[-1]
    outputs = _time_major(outputs)
    if outputs.shape.ndims:
        outputs.set_shape([inputs.shape[0], inputs.shape[1]] + outputs.shape.as_list()[2:])
    return last, outputs, list(carried[1:] if masked else carried)
