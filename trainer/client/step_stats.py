"""Step statistics of a traced Session.run: RunOptions(trace_level=FULL_TRACE) and a RunMetadata to fill.

As in TF1, a run with trace_level above NO_TRACE and a run_metadata appends one DeviceStepStats (the device
this session runs on) to run_metadata.step_stats.dev_stats: one NodeExecStats per op run, in run order, with
its start (microseconds since the epoch), duration, timeline label "name = Type(inputs)" and each output's
dtype, shape and bytes. tensorflow.python.client.timeline turns them into a Chrome trace. The ops inside a
tg.cond or tg.while_loop body are timed as part of the control-flow op that runs them.

A kernel that does several things (the gradients' allreduce: copy into the fusion buffers, reduce, copy out)
reports them through report_activities(), the one channel for timings inside a step: during a traced run each
span becomes, after its op's node, a node named "<op>/<activity>" and typed by the activity, so the Chrome trace
shows it on a lane beside the op; traced or not, every function in ACTIVITY_LISTENERS is told (Horovod's
timeline, the DistributedOptimizers' add_allreduce_callback and through it `ringflow train`'s timing hooks).
"""
import contextlib
import time

from ..framework import dtypes
from .config import DeviceStepStats, NodeOutput, RunOptions

_DEVICES = {"gpu": "/job:localhost/replica:0/task:0/device:GPU:0"}
_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def input_names(op):
    """An op's inputs as a NodeDef lists them: "name" for output 0, "name:k" for others, "^name" for control."""
    return ([t.op.name if t.value_index == 0 else t.name for t in op.inputs]
            + [f"^{c.name}" for c in op.control_inputs])


_recording = []  # the StepRecorder of the traced Session.run in progress, innermost last
ACTIVITY_LISTENERS = []  # listener(operation, tensors, spans, args): told of every report_activities call


@contextlib.contextmanager
def recording(recorder):
    """Make `recorder` (a StepRecorder, or None: nothing) the one report_activities() adds to, while a run runs."""
    if recorder is None:
        yield
        return
    _recording.append(recorder)
    try:
        yield
    finally:
        _recording.remove(recorder)


def report_activities(operation, tensors, spans, **args):
    """What the running kernel did, once done: `operation` ("ALLREDUCE", ...) on `tensors` (names) went through
    `spans` [(activity, start, end)] in time.perf_counter() seconds ("RING_ALLREDUCE", ...); `args` (dtype,
    shape) are for the listeners. Added to the traced run in progress, if any, and told to ACTIVITY_LISTENERS."""
    if _recording:
        for activity, start, end in spans:
            _recording[-1].activity(activity, start, end)
    for listener in tuple(ACTIVITY_LISTENERS):  # a listener may remove itself
        listener(operation, tensors, spans, args)


def recorder_for(options, run_metadata, device):
    """A StepRecorder when `options` ask for a trace and there is a run_metadata to fill, else None."""
    if run_metadata is None or options is None or getattr(options, "trace_level", 0) <= RunOptions.NO_TRACE:
        return None
    return StepRecorder(_DEVICES.get(device, _CPU))


class StepRecorder:
    """Called by the plan after each kernel as recorder(op, start_ns, end_ns, value) (perf_counter clock)."""

    def __init__(self, device):
        self.stats = DeviceStepStats(device=device, thread_names={0: "ringflow executor"})
        self._epoch_offset_ns = time.time_ns() - time.perf_counter_ns()
        self._last = self._node = None
        self._activities = []  # (activity, start_ns, end_ns) of the kernel running, added after its op's node

    def __call__(self, op, start_ns, end_ns, value):
        if op is not self._last:  # else one more output of a multi-output op, picked from its result
            self._last = op
            self._node = self.stats.node_stats.add(node_name=op.name, timeline_label=_label(op))
            _set_times(self._node, start_ns + self._epoch_offset_ns, end_ns + self._epoch_offset_ns)
            for activity, a_start, a_end in self._activities:
                name = f"{op.name}/{activity}"
                node = self.stats.node_stats.add(node_name=name, timeline_label=f"{name} = {activity}({op.name})")
                _set_times(node, a_start + self._epoch_offset_ns, a_end + self._epoch_offset_ns)
            self._activities = []
        if not isinstance(value, tuple) and value is not None:
            self._node.output.append(_output(len(self._node.output), value))

    def activity(self, activity, start, end):
        """A span reported by report_activities (perf_counter seconds) inside the kernel now running."""
        self._activities.append((activity, int(start * 1e9), int(end * 1e9)))

    def save(self, run_metadata):
        """Append this run's statistics to run_metadata.step_stats (TF1 merges into what is there)."""
        run_metadata.step_stats.dev_stats.append(self.stats)


def _label(op):
    return f"{op.name} = {op.type}({', '.join(input_names(op))})"


def _set_times(node, start_ns, end_ns):
    node.all_start_nanos = node.scheduled_nanos = start_ns
    node.all_start_micros = node.scheduled_micros = start_ns // 1000
    duration_ns = max(end_ns - start_ns, 0)
    node.op_end_rel_nanos = node.all_end_rel_nanos = duration_ns
    node.op_end_rel_micros = node.all_end_rel_micros = duration_ns // 1000


def _output(slot, value):
    out = NodeOutput(slot=slot)
    description = out.tensor_description
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None or dtype is None:
        return out
    try:
        description.dtype = dtypes.as_dtype(dtype).as_datatype_enum
    except (TypeError, KeyError, ValueError):
        pass  # a dtype without a TF enum value stays DT_INVALID (0)
    for size in shape:
        description.shape.dim.add(size=int(size))
    nbytes = int(getattr(value, "nbytes", 0))
    allocation = description.allocation_description
    allocation.requested_bytes = allocation.allocated_bytes = nbytes
    allocation.allocator_name = "GPU_0_bfc" if type(value).__module__.startswith("cupy") else "cpu"
    return out
