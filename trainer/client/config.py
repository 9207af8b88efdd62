"""TF1's session configuration messages (ConfigProto, GPUOptions, RunOptions, ...) as plain typed objects.

They behave like the protocol buffers TF1 programs build: keyword construction (nested messages from a message or a
dict), attribute access down nested messages (config.gpu_options.allow_growth = True), type-checked scalar fields,
repeated fields with .add()/.extend(), map fields as dicts, enum values on the class (RunOptions.FULL_TRACE).
An unknown field raises ValueError on construction and AttributeError on assignment, as protobuf does.
Which fields ringflow acts on is up to the code that reads them: see the README; the rest are accepted only.
"""
import copy

ANY = object()  # a field whose value ringflow keeps but does not interpret (cluster_def, rewrite_options, ...)


class Repeated:
    """Field kind: a list of item (a scalar type, a Message class, or ANY)."""

    def __init__(self, item):
        self.item = item


class RepeatedField(list):
    """A repeated field's value; .add(**fields) appends a new message item."""

    def __init__(self, item, values=()):
        super().__init__()
        self.item = item
        self.extend(values)

    def add(self, **fields):
        if not _is_message(self.item):
            raise TypeError("add() builds message items; append() a value to this scalar repeated field instead")
        self.append(self.item(**fields))
        return self[-1]


def _is_message(kind):
    return isinstance(kind, type) and issubclass(kind, Message)


def _fresh(kind):
    if _is_message(kind):
        return kind()
    if isinstance(kind, Repeated):
        return RepeatedField(kind.item)
    if isinstance(kind, dict):
        return {}
    return None if kind is ANY else kind


def _checked(owner, name, kind, value):
    if kind is ANY:
        return value
    if isinstance(kind, bool):
        ok = isinstance(value, (bool, int))
    elif isinstance(kind, int):
        ok = isinstance(value, int)
    elif isinstance(kind, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, str)
    if not ok:
        raise TypeError(f"{value!r} has type {type(value).__name__}, but {owner}.{name} takes a "
                        f"{type(kind).__name__}")
    return type(kind)(value)


class Message:
    """Base of the config messages; subclasses list FIELDS = {name: default scalar, Message class, Repeated, {}}."""

    FIELDS = {}

    def __init__(self, **fields):
        for name, kind in self.FIELDS.items():
            object.__setattr__(self, name, _fresh(kind))
        for name, value in fields.items():
            if name not in self.FIELDS:
                raise ValueError(f"Protocol message {type(self).__name__} has no {name!r} field; its fields are "
                                 f"{sorted(self.FIELDS)}")
            self._assign(name, value)

    def _assign(self, name, value):
        kind = self.FIELDS[name]
        if _is_message(kind):
            value = kind(**value) if isinstance(value, dict) else value
            if not isinstance(value, kind):
                raise TypeError(f"{type(self).__name__}.{name} takes a {kind.__name__}, got {value!r}")
            getattr(self, name).CopyFrom(value)
        elif isinstance(kind, Repeated):
            items = getattr(self, name)
            items.clear()
            for item in value:
                items.append(_coerce_item(kind.item, item, f"{type(self).__name__}.{name}"))
        elif isinstance(kind, dict):
            getattr(self, name).update(value)
        else:
            object.__setattr__(self, name, _checked(type(self).__name__, name, kind, value))

    def __setattr__(self, name, value):
        if name not in self.FIELDS:
            raise AttributeError(f"Assignment not allowed (no field {name!r} in protocol message "
                                 f"{type(self).__name__})")
        kind = self.FIELDS[name]
        if _is_message(kind) or isinstance(kind, (Repeated, dict)):
            raise AttributeError(f"Assignment not allowed to composite field {name!r} of {type(self).__name__}: "
                                 f"set its fields, or use .CopyFrom() / .extend() / .update()")
        self._assign(name, value)

    def CopyFrom(self, other):  # noqa: N802  (protobuf's method names)
        """Make this message a copy of other (same type)."""
        if type(other) is not type(self):
            raise TypeError(f"{type(self).__name__}.CopyFrom needs a {type(self).__name__}, got {other!r}")
        for name in self.FIELDS:
            object.__setattr__(self, name, copy.deepcopy(getattr(other, name)))

    def Clear(self):  # noqa: N802
        self.CopyFrom(type(self)())

    def HasField(self, name):  # noqa: N802
        """For a message field: whether any of its fields differs from the defaults."""
        if not _is_message(self.FIELDS.get(name)):
            raise ValueError(f"{type(self).__name__} has no message field {name!r} (HasField takes message fields)")
        return getattr(self, name) != self.FIELDS[name]()

    def ListFields(self):  # noqa: N802
        """(name, value) of every field that is not at its default."""
        return [(name, getattr(self, name)) for name, kind in self.FIELDS.items()
                if getattr(self, name) != _fresh(kind)]

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, n) == getattr(other, n) for n in self.FIELDS)

    __hash__ = None

    def __repr__(self):
        return _text(self, "")

    __str__ = __repr__


def _coerce_item(item, value, where):
    if _is_message(item):
        value = item(**value) if isinstance(value, dict) else value
        if not isinstance(value, item):
            raise TypeError(f"{where} holds {item.__name__} items, got {value!r}")
        return value
    return _checked(where, "item", item, value)


def _text(message, indent):
    """Protobuf text format of the non-default fields."""
    lines = []
    for name, value in message.ListFields():
        values = value.items() if isinstance(value, dict) else value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, Message):
                lines.append(f"{indent}{name} {{\n{_text(item, indent + '  ')}{indent}}}\n")
            elif isinstance(value, dict):
                lines.append(f"{indent}{name} {{\n{indent}  key: {_scalar(item[0])}\n{indent}  value: "
                             f"{_scalar(item[1])}\n{indent}}}\n")
            else:
                lines.append(f"{indent}{name}: {_scalar(item)}\n")
    return "".join(lines)


def _scalar(value):
    if isinstance(value, bool):
        return str(value).lower()
    return '"' + _c_escape(value) + '"' if isinstance(value, str) else str(value)


_ESCAPES = {9: "\\t", 10: "\\n", 13: "\\r", 34: '\\"', 39: "\\'", 92: "\\\\"}


def _c_escape(text):
    """Protobuf's text-format string escaping: the UTF-8 bytes, quotes and backslashes escaped, the bytes
    outside printable ASCII as three octal digits."""
    return "".join(_ESCAPES.get(b) or (chr(b) if 32 <= b < 127 else f"\\{b:03o}") for b in text.encode("utf-8"))


class ThreadPoolOptionProto(Message):
    FIELDS = {"num_threads": 0, "global_name": ""}


class VirtualDevices(Message):
    FIELDS = {"memory_limit_mb": Repeated(0.0)}


class GPUOptionsExperimental(Message):
    FIELDS = {"virtual_devices": Repeated(VirtualDevices), "use_unified_memory": False,
              "num_dev_to_dev_copy_streams": 0, "collective_ring_order": "", "timestamped_allocator": False,
              "kernel_tracker_max_interval": 0, "kernel_tracker_max_bytes": 0, "kernel_tracker_max_pending": 0}
    VirtualDevices = VirtualDevices


class GPUOptions(Message):
    FIELDS = {"per_process_gpu_memory_fraction": 0.0, "allow_growth": False, "allocator_type": "",
              "deferred_deletion_bytes": 0, "visible_device_list": "", "polling_active_delay_usecs": 0,
              "polling_inactive_delay_msecs": 0, "force_gpu_compatible": False,
              "experimental": GPUOptionsExperimental}
    Experimental = GPUOptionsExperimental


class OptimizerOptions(Message):
    L1, L0 = 0, -1  # Level
    DEFAULT, OFF, ON_1, ON_2 = 0, -1, 1, 2  # GlobalJitLevel
    FIELDS = {"do_common_subexpression_elimination": False, "do_constant_folding": False,
              "max_folded_constant_in_bytes": 0, "do_function_inlining": False, "opt_level": 0,
              "global_jit_level": 0}


class GraphOptions(Message):
    FIELDS = {"enable_recv_scheduling": False, "optimizer_options": OptimizerOptions, "build_cost_model": 0,
              "build_cost_model_after": 0, "infer_shapes": False, "place_pruned_graph": False,
              "enable_bfloat16_sendrecv": False, "timeline_step": 0, "rewrite_options": ANY}


class ConfigProtoExperimental(Message):
    FIELDS = {"collective_group_leader": "", "executor_type": "", "recv_buf_max_chunk": 0,
              "use_numa_affinity": False, "collective_deterministic_sequential_execution": False,
              "collective_nccl": False, "share_session_state_in_clusterspec_propagation": False,
              "disable_thread_spinning": False, "share_cluster_devices_in_session": False,
              "session_metadata": ANY, "optimize_for_static_graph": False}


class ConfigProto(Message):
    FIELDS = {"device_count": {}, "intra_op_parallelism_threads": 0, "inter_op_parallelism_threads": 0,
              "use_per_session_threads": False, "session_inter_op_thread_pool": Repeated(ThreadPoolOptionProto),
              "placement_period": 0, "device_filters": Repeated(""), "gpu_options": GPUOptions,
              "allow_soft_placement": False, "log_device_placement": False, "graph_options": GraphOptions,
              "operation_timeout_in_ms": 0, "rpc_options": ANY, "cluster_def": ANY, "isolate_session_state": False,
              "experimental": ConfigProtoExperimental}
    Experimental = ConfigProtoExperimental


class RunOptionsExperimental(Message):
    FIELDS = {"collective_graph_key": 0, "use_run_handler_pool": False}


class RunOptions(Message):
    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3  # TraceLevel
    FIELDS = {"trace_level": 0, "timeout_in_ms": 0, "inter_op_thread_pool": 0, "output_partition_graphs": False,
              "debug_options": ANY, "report_tensor_allocations_upon_oom": False,
              "experimental": RunOptionsExperimental}
    Experimental = RunOptionsExperimental


class AllocationDescription(Message):
    FIELDS = {"requested_bytes": 0, "allocated_bytes": 0, "allocator_name": "", "allocation_id": 0,
              "has_single_reference": False, "ptr": 0}


class TensorShapeProto(Message):
    class Dim(Message):
        FIELDS = {"size": 0, "name": ""}

    FIELDS = {"dim": Repeated(Dim), "unknown_rank": False}


class TensorDescription(Message):
    FIELDS = {"dtype": 0, "shape": TensorShapeProto, "allocation_description": AllocationDescription}


class NodeOutput(Message):
    FIELDS = {"slot": 0, "tensor_description": TensorDescription}


class NodeExecStats(Message):
    """One op's run in a traced step (TF's step_stats.proto); times in microseconds, and in nanoseconds."""
    FIELDS = {"node_name": "", "all_start_micros": 0, "op_start_rel_micros": 0, "op_end_rel_micros": 0,
              "all_end_rel_micros": 0, "memory": Repeated(ANY), "output": Repeated(NodeOutput),
              "timeline_label": "", "scheduled_micros": 0, "thread_id": 0,
              "referenced_tensor": Repeated(AllocationDescription), "memory_stats": ANY, "all_start_nanos": 0,
              "op_start_rel_nanos": 0, "op_end_rel_nanos": 0, "all_end_rel_nanos": 0, "scheduled_nanos": 0}


class DeviceStepStats(Message):
    FIELDS = {"device": "", "node_stats": Repeated(NodeExecStats), "thread_names": {}}


class StepStats(Message):
    FIELDS = {"dev_stats": Repeated(DeviceStepStats)}


class RunMetadata(Message):
    FIELDS = {"step_stats": StepStats, "cost_graph": ANY, "partition_graphs": Repeated(ANY),
              "function_graphs": Repeated(ANY)}
