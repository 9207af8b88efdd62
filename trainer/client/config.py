"""TF1's session configuration messages (ConfigProto, GPUOptions, RunOptions, RunMetadata, ...) with the field
numbers of TF's config.proto and step_stats.proto, on the one Message base (platform/protobuf.py).

They behave like the protocol buffers TF1 programs build: keyword construction (nested messages from a message or a
dict), attribute access down nested messages (config.gpu_options.allow_growth = True), type-checked scalar fields,
repeated fields with .add()/.extend(), map fields as dicts, enum values on the class (RunOptions.FULL_TRACE).
An unknown field raises ValueError on construction and AttributeError on assignment, as protobuf does.
Which fields ringflow acts on is up to the code that reads them: see the README; the rest are accepted only.
"""
from ..framework.node_def import GraphDef
from ..framework.tensor_shape import TensorShapeProto
from ..framework.tensor_util import DATA_TYPE_NAMES
from ..platform.protobuf import Field as F, Message


class ThreadPoolOptionProto(Message):
    FIELDS = {"num_threads": F(1, "int32"), "global_name": F(2, "string")}


class VirtualDevices(Message):
    FIELDS = {"memory_limit_mb": F(1, "float", repeated=True)}


class GPUOptionsExperimental(Message):
    FIELDS = {"virtual_devices": F(1, "message", VirtualDevices, repeated=True), "use_unified_memory": F(2, "bool"),
              "num_dev_to_dev_copy_streams": F(3, "int32"), "collective_ring_order": F(4, "string"),
              "timestamped_allocator": F(5, "bool"), "kernel_tracker_max_interval": F(7, "int32"),
              "kernel_tracker_max_bytes": F(8, "int32"), "kernel_tracker_max_pending": F(9, "int32")}
    VirtualDevices = VirtualDevices


class GPUOptions(Message):
    FIELDS = {"per_process_gpu_memory_fraction": F(1, "double"), "allow_growth": F(4, "bool"),
              "allocator_type": F(2, "string"), "deferred_deletion_bytes": F(3, "int64"),
              "visible_device_list": F(5, "string"), "polling_active_delay_usecs": F(6, "int32"),
              "polling_inactive_delay_msecs": F(7, "int32"), "force_gpu_compatible": F(8, "bool"),
              "experimental": F(9, "message", GPUOptionsExperimental)}
    Experimental = GPUOptionsExperimental


class OptimizerOptions(Message):
    L1, L0 = 0, -1  # Level
    DEFAULT, OFF, ON_1, ON_2 = 0, -1, 1, 2  # GlobalJitLevel
    FIELDS = {"do_common_subexpression_elimination": F(1, "bool"), "do_constant_folding": F(2, "bool"),
              "max_folded_constant_in_bytes": F(6, "int64"), "do_function_inlining": F(4, "bool"),
              "opt_level": F(3, "enum"), "global_jit_level": F(5, "enum")}


TOGGLES = {0: "DEFAULT", 1: "ON", 2: "OFF", 3: "AGGRESSIVE"}  # RewriterConfig.Toggle's names


class RewriterConfig(Message):
    """TF's grappler options (rewriter_config.proto). ringflow acts on `remapping`: OFF turns off its fusion
    of a MatMul or convolution with the BiasAdd and activation that finish its buffer, and of ReLU's gradient with
    the max pooling gradient it feeds (client/fusion.py); and on `constant_folding`: OFF turns off its folding of
    what the feeds' shapes alone decide (client/shape_folding.py)."""
    DEFAULT, ON, OFF, AGGRESSIVE = 0, 1, 2, 3  # Toggle
    NO_MEM_OPT, MANUAL, HEURISTICS = 1, 2, 3  # MemOptType (DEFAULT_MEM_OPT is 0)
    DEFAULT_NUM_ITERS, ONE, TWO = 0, 1, 2  # NumIterationsType
    FIELDS = {**{name: F(number, "enum", names=TOGGLES) for name, number in (
        ("layout_optimizer", 1), ("constant_folding", 3), ("shape_optimization", 13), ("remapping", 14),
        ("arithmetic_optimization", 7), ("dependency_optimization", 8), ("loop_optimization", 9),
        ("function_optimization", 10), ("debug_stripper", 11), ("scoped_allocator_optimization", 15),
        ("pin_to_host_optimization", 18), ("implementation_selector", 22), ("auto_mixed_precision", 23))},
        "meta_optimizer_iterations": F(12, "enum"), "memory_optimization": F(4, "enum"),
        "disable_model_pruning": F(2, "bool"), "disable_meta_optimizer": F(19, "bool"),
        "min_graph_nodes": F(17, "int32"), "memory_optimizer_target_node_name_scope": F(6, "string"),
        "meta_optimizer_timeout_ms": F(20, "int64"), "auto_parallel": F(5, "any"),
        "fail_on_optimizer_errors": F(21, "bool"), "scoped_allocator_opts": F(16, "any"),
        "optimizers": F(100, "string", repeated=True), "custom_optimizers": F(200, "any", repeated=True),
        "inter_optimizer_verifier_config": F(300, "any"), "post_optimization_verifier_config": F(301, "any")}


class GraphOptions(Message):
    FIELDS = {"enable_recv_scheduling": F(2, "bool"), "optimizer_options": F(3, "message", OptimizerOptions),
              "build_cost_model": F(4, "int64"), "build_cost_model_after": F(9, "int64"),
              "infer_shapes": F(5, "bool"), "place_pruned_graph": F(6, "bool"),
              "enable_bfloat16_sendrecv": F(7, "bool"), "timeline_step": F(8, "int32"),
              "rewrite_options": F(10, "message", RewriterConfig)}
    RewriterConfig = RewriterConfig


class ConfigProtoExperimental(Message):
    FIELDS = {"collective_group_leader": F(1, "string"), "executor_type": F(3, "string"),
              "recv_buf_max_chunk": F(4, "int32"), "use_numa_affinity": F(5, "bool"),
              "collective_deterministic_sequential_execution": F(6, "bool"), "collective_nccl": F(7, "bool"),
              "share_session_state_in_clusterspec_propagation": F(8, "bool"),
              "disable_thread_spinning": F(9, "bool"), "share_cluster_devices_in_session": F(10, "bool"),
              "session_metadata": F(11, "any"), "optimize_for_static_graph": F(12, "bool")}


class ConfigProto(Message):
    FIELDS = {"device_count": F(1, "map", "int32", key="string"), "intra_op_parallelism_threads": F(2, "int32"),
              "inter_op_parallelism_threads": F(5, "int32"), "use_per_session_threads": F(9, "bool"),
              "session_inter_op_thread_pool": F(12, "message", ThreadPoolOptionProto, repeated=True),
              "placement_period": F(3, "int32"), "device_filters": F(4, "string", repeated=True),
              "gpu_options": F(6, "message", GPUOptions), "allow_soft_placement": F(7, "bool"),
              "log_device_placement": F(8, "bool"), "graph_options": F(10, "message", GraphOptions),
              "operation_timeout_in_ms": F(11, "int64"), "rpc_options": F(13, "any"), "cluster_def": F(14, "any"),
              "isolate_session_state": F(15, "bool"), "experimental": F(16, "message", ConfigProtoExperimental)}
    Experimental = ConfigProtoExperimental


class RunOptionsExperimental(Message):
    FIELDS = {"collective_graph_key": F(1, "int64"), "use_run_handler_pool": F(2, "bool")}


class RunOptions(Message):
    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3  # TraceLevel
    FIELDS = {"trace_level": F(1, "enum"), "timeout_in_ms": F(2, "int64"), "inter_op_thread_pool": F(3, "int32"),
              "output_partition_graphs": F(5, "bool"), "debug_options": F(6, "any"),
              "report_tensor_allocations_upon_oom": F(7, "bool"),
              "experimental": F(8, "message", RunOptionsExperimental)}
    Experimental = RunOptionsExperimental


class AllocationDescription(Message):
    FIELDS = {"requested_bytes": F(1, "int64"), "allocated_bytes": F(2, "int64"), "allocator_name": F(3, "string"),
              "allocation_id": F(4, "int64"), "has_single_reference": F(5, "bool"), "ptr": F(6, "uint64")}


class TensorDescription(Message):
    FIELDS = {"dtype": F(1, "enum", names=DATA_TYPE_NAMES), "shape": F(2, "message", TensorShapeProto),
              "allocation_description": F(4, "message", AllocationDescription)}


class NodeOutput(Message):
    FIELDS = {"slot": F(1, "int32"), "tensor_description": F(3, "message", TensorDescription)}


class NodeExecStats(Message):
    """One op's run in a traced step (TF's step_stats.proto); times in microseconds, and in nanoseconds."""
    FIELDS = {"node_name": F(1, "string"), "all_start_micros": F(2, "int64"), "op_start_rel_micros": F(3, "int64"),
              "op_end_rel_micros": F(4, "int64"), "all_end_rel_micros": F(5, "int64"),
              "memory": F(6, "any", repeated=True), "output": F(7, "message", NodeOutput, repeated=True),
              "timeline_label": F(8, "string"), "scheduled_micros": F(9, "int64"), "thread_id": F(10, "uint32"),
              "referenced_tensor": F(11, "message", AllocationDescription, repeated=True),
              "memory_stats": F(12, "any"), "all_start_nanos": F(13, "int64"), "op_start_rel_nanos": F(14, "int64"),
              "op_end_rel_nanos": F(15, "int64"), "all_end_rel_nanos": F(16, "int64"),
              "scheduled_nanos": F(17, "int64")}


class DeviceStepStats(Message):
    FIELDS = {"device": F(1, "string"), "node_stats": F(2, "message", NodeExecStats, repeated=True),
              "thread_names": F(3, "map", "string", key="uint32")}


class StepStats(Message):
    FIELDS = {"dev_stats": F(1, "message", DeviceStepStats, repeated=True)}


class RunMetadata(Message):
    FIELDS = {"step_stats": F(1, "message", StepStats), "cost_graph": F(2, "any"),
              "partition_graphs": F(3, "message", GraphDef, repeated=True),
              "function_graphs": F(4, "any", repeated=True)}
