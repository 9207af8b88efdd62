"""tensorflow.python.client.timeline: a traced step (RunMetadata.step_stats) as a Chrome trace, in TF1's format.

    run_metadata = tf.RunMetadata()
    sess.run(train_op, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=run_metadata)
    with open('timeline.json', 'w') as f:
        f.write(timeline.Timeline(run_metadata.step_stats).generate_chrome_trace_format())

Open the file in chrome://tracing or ui.perfetto.dev. As TF1 lays it out: process 0 is "Allocators" (memory
counters), then each device has a "<device> Compute" process of 'X' events (one per op: name the op type,
args its node name and inputs) and a "<device> Tensors" process. Ops that overlap in time on one device get
separate lanes (tid). show_dataflow adds flow arrows from a tensor's producer to its consumers on other lanes;
show_memory adds each output tensor's lifetime and a running total of bytes per allocator.
"""
import collections
import json
import re

AllocationMaximum = collections.namedtuple("AllocationMaximum", ("timestamp", "num_bytes", "tensors"))
StepStatsAnalysis = collections.namedtuple("StepStatsAnalysis", ("chrome_trace", "allocator_maximums"))
_LABEL = re.compile(r"(.*) = (.*)\((.*)\)")


class ChromeTrace:
    """Trace events in Chrome's JSON format: metadata ('M') first, then the events. The one writer of ringflow's
    Chrome traces: this module's, `ringflow train --timeline`'s (trainer/program/timeline.py) and Horovod's
    timeline (trainer/horovod/timeline.py, which streams them as a JSON array with `drain`)."""

    def __init__(self):
        self.metadata, self.events = [], []

    def process(self, pid, name, sort_index=None):
        """Name trace process `pid` (and place it `sort_index`-th, where given)."""
        self.metadata.append({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": name}})
        if sort_index is not None:
            self.metadata.append({"name": "process_sort_index", "ph": "M", "pid": pid,
                                  "args": {"sort_index": sort_index}})

    def event(self, ph, category, name, pid, tid, ts, **fields):
        """One event of phase `ph` ('X' complete, 'B'/'E' begin/end, ...); category None leaves out "cat"."""
        event = {"ph": ph, "cat": category, "name": name, "pid": pid, "tid": tid, "ts": ts, **fields}
        if category is None:
            del event["cat"]
        self.events.append(event)

    def format_to_string(self, pretty=False, **fields):
        """The trace as one JSON object, {"traceEvents": [...]} and `fields` ("displayTimeUnit", ...)."""
        trace = {"traceEvents": self.metadata + self.events, **fields}
        if pretty:
            return json.dumps(trace, indent=4, separators=(",", ": "))
        return json.dumps(trace, separators=(",", ":"))

    def drain(self):
        """The JSON text of each event added since the last drain, metadata first, and forget them: for a trace
        written while it is recorded, as a JSON array of events (the other form Chrome reads)."""
        texts = [json.dumps(event) for event in self.metadata + self.events]
        self.metadata, self.events = [], []
        return texts


class _Tensor:
    def __init__(self, object_id, created, pid, allocator, num_bytes):
        self.object_id, self.created, self.pid = object_id, created, pid
        self.allocator, self.num_bytes, self.unrefs = allocator, num_bytes, []


def parse_op_label(label):
    """(node name, op type, [inputs]) of a timeline label "name = Type(a, b)"; unknowns if it is not one."""
    match = _LABEL.match(label)
    if match is None:
        return "unknown", "unknown", []
    name, op, inputs = match.groups()
    return name, op, inputs.split(", ") if inputs else []


class Timeline:
    """The Chrome trace of one traced step's StepStats (`graph` is accepted, as in TF1, and not needed)."""

    def __init__(self, step_stats, graph=None):
        self._step_stats, self._graph = step_stats, graph

    def generate_chrome_trace_format(self, show_dataflow=True, show_memory=False, op_time="schedule"):
        """The trace as an indented JSON string."""
        analysis = self.analyze_step_stats(show_dataflow, show_memory, op_time)
        return analysis.chrome_trace.format_to_string(pretty=True)

    def analyze_step_stats(self, show_dataflow=True, show_memory=True, op_time="schedule"):
        """StepStatsAnalysis(chrome_trace, allocator_maximums {allocator: AllocationMaximum})."""
        if op_time not in ("schedule", "gpu", "all"):
            raise ValueError(f"op_time must be 'schedule', 'gpu' or 'all', got {op_time!r}")
        trace, self._tensors, self._flow_starts = ChromeTrace(), {}, {}
        self._next_flow = 0
        trace.process(0, "Allocators")
        devices = []  # (DeviceStepStats, compute pid, tensors pid, lanes)
        for i, dev in enumerate(self._step_stats.dev_stats):
            compute_pid, tensors_pid = 1 + 2 * i, 2 + 2 * i
            trace.process(compute_pid, f"{dev.device} Compute")
            trace.process(tensors_pid, f"{dev.device} Tensors")
            devices.append((dev, compute_pid, tensors_pid, _lanes(dev.node_stats)))
        for dev, compute_pid, tensors_pid, lanes in devices:
            self._produce(trace, dev.node_stats, compute_pid, tensors_pid, lanes, show_memory)
        for dev, compute_pid, _, lanes in devices:
            self._compute(trace, dev.node_stats, compute_pid, lanes, show_dataflow)
        maximums = self._memory(trace) if show_memory else {}
        return StepStatsAnalysis(trace, maximums)

    def _produce(self, trace, nodes, compute_pid, tensors_pid, lanes, show_memory):
        for node, lane in zip(nodes, lanes):
            start, end = node.all_start_micros, node.all_start_micros + node.all_end_rel_micros
            for index, output in enumerate(node.output):
                name = f"{node.node_name}:{index}" if index else node.node_name
                allocation = output.tensor_description.allocation_description
                tensor = _Tensor(len(self._tensors), start, tensors_pid, allocation.allocator_name,
                                 allocation.requested_bytes)
                tensor.unrefs.append(end)
                self._tensors[name] = tensor
                self._flow_starts[name] = (end, compute_pid, lane)
                if show_memory:
                    trace.event("N", "Tensor", name, tensors_pid, lane, start, id=tensor.object_id)
                    snapshot = {"tensor_description": str(output.tensor_description).replace('"', "")}
                    trace.event("O", "Tensor", name, tensors_pid, lane, end - 1, id=tensor.object_id,
                                args={"snapshot": snapshot})

    def _compute(self, trace, nodes, pid, lanes, show_dataflow):
        for node, lane in zip(nodes, lanes):
            start, end = node.all_start_micros, node.all_start_micros + node.all_end_rel_micros
            _, op, inputs = parse_op_label(node.timeline_label)
            args = {"name": node.node_name, "op": op, **{f"input{i}": name for i, name in enumerate(inputs)}}
            trace.event("X", "Op", op, pid, lane, start, dur=node.all_end_rel_micros, args=args)
            for name in inputs:
                tensor = self._tensors.get(name)
                if tensor is None:
                    continue  # a control input, or a tensor not produced in this step (a feed)
                tensor.unrefs.append(end - 1)
                created_at, created_pid, created_lane = self._flow_starts[name]
                if show_dataflow and (created_pid, created_lane) != (pid, lane):
                    flow = self._next_flow
                    self._next_flow += 1
                    trace.event("s", "DataFlow", name, created_pid, created_lane, created_at, id=flow)
                    trace.event("t", "DataFlow", name, pid, lane, start, id=flow)

    def _memory(self, trace):
        by_allocator = collections.defaultdict(list)
        for name, tensor in self._tensors.items():
            last = max(tensor.unrefs)
            trace.event("D", "Tensor", name, tensor.pid, 0, last, id=tensor.object_id)
            by_allocator[tensor.allocator] += [(tensor.created, tensor.num_bytes, name),
                                               (last, -tensor.num_bytes, name)]
        maximums = {}
        for allocator, changes in by_allocator.items():
            total, live, best = 0, set(), AllocationMaximum(0, 0, set())
            for ts, num_bytes, name in sorted(changes, key=lambda change: change[0]):
                total += num_bytes
                (live.add if num_bytes >= 0 else live.discard)(name)
                if total > best.num_bytes:
                    best = AllocationMaximum(ts, total, set(live))
                trace.event("C", "Memory", allocator, 0, 0, ts, args={allocator: total})
            maximums[allocator] = best
        return maximums


def _lanes(nodes):
    """TF1's lane per op: the first lane whose last op ended before this one starts (in whole microseconds)."""
    ends, lanes = [0], []
    for node in nodes:
        start = node.all_start_micros
        lane = next((i for i, end in enumerate(ends) if start > end), len(ends))
        if lane == len(ends):
            ends.append(0)
        ends[lane] = start + node.all_end_rel_micros
        lanes.append(lane)
    return lanes
