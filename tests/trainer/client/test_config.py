"""TF1's config messages as protobuf behaves: typed fields, nested messages, unknown fields refused by name."""
import pytest

import trainer as tg
from trainer.client.config import RewriterConfig


def test_construct_and_set_nested_fields():
    config = tg.ConfigProto(allow_soft_placement=True, log_device_placement=False, device_count={"GPU": 0},
                            gpu_options=tg.GPUOptions(per_process_gpu_memory_fraction=0.4),
                            graph_options={"optimizer_options": {"opt_level": tg.OptimizerOptions.L0}},
                            intra_op_parallelism_threads=2, inter_op_parallelism_threads=1)
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = "0,1"
    config.session_inter_op_thread_pool.add(num_threads=3)
    config.device_filters.append("/job:worker")
    assert (config.allow_soft_placement, config.device_count, config.intra_op_parallelism_threads) == \
        (True, {"GPU": 0}, 2)
    assert (config.gpu_options.allow_growth, config.gpu_options.per_process_gpu_memory_fraction) == (True, 0.4)
    assert config.graph_options.optimizer_options.opt_level == -1
    assert config.session_inter_op_thread_pool[0].num_threads == 3
    assert config.HasField("gpu_options") and not config.HasField("experimental")
    assert "allow_growth: true" in str(config) and 'visible_device_list: "0,1"' in str(config)


def test_defaults_and_copies_are_independent():
    a, b = tg.ConfigProto(), tg.ConfigProto()
    a.gpu_options.allow_growth = True
    assert b.gpu_options.allow_growth is False and a != b
    b.CopyFrom(a)
    assert a == b and b.gpu_options is not a.gpu_options
    b.Clear()
    assert b == tg.ConfigProto() and b.ListFields() == []


def test_unknown_and_mistyped_fields_are_named():
    with pytest.raises(ValueError, match="ConfigProto has no 'allow_growth' field"):
        tg.ConfigProto(allow_growth=True)
    with pytest.raises(AttributeError, match="no field 'allow_grwth'"):
        tg.GPUOptions().allow_grwth = True
    with pytest.raises(TypeError, match="'yes'.*GPUOptions.allow_growth"):
        tg.GPUOptions(allow_growth="yes")
    with pytest.raises(AttributeError, match="composite field 'gpu_options'"):
        tg.ConfigProto().gpu_options = tg.GPUOptions()


def test_run_options_and_metadata():
    options = tg.RunOptions(trace_level=tg.RunOptions.FULL_TRACE)
    assert (options.trace_level, tg.RunOptions.NO_TRACE, tg.RunOptions.SOFTWARE_TRACE,
            tg.RunOptions.HARDWARE_TRACE) == (3, 0, 1, 2)
    metadata = tg.RunMetadata()
    assert list(metadata.step_stats.dev_stats) == [] and list(metadata.partition_graphs) == []
    assert tg.GraphOptions().optimizer_options == tg.OptimizerOptions()


def test_field_numbers_are_those_of_tf1s_config_proto():
    # written out by hand from config.proto: key = field number << 3 | wire type
    config = tg.ConfigProto(allow_soft_placement=True, gpu_options=tg.GPUOptions(allow_growth=True),
                            device_count={"GPU": 1})
    assert config.SerializeToString() == b"\x0a\x07\x0a\x03GPU\x10\x01" + b"\x32\x02\x20\x01" + b"\x38\x01"
    assert tg.RunOptions(trace_level=tg.RunOptions.FULL_TRACE).SerializeToString() == b"\x08\x03"


def test_rewrite_options_are_tf1s_rewriter_config():
    config = tg.ConfigProto()
    options = config.graph_options.rewrite_options
    options.remapping, options.constant_folding = RewriterConfig.OFF, RewriterConfig.ON
    options.disable_meta_optimizer = True
    options.optimizers.append("pruning")
    # TF 2.15's config_pb2 serialized the same message to these bytes
    assert config.SerializeToString() == b"R\x13R\x11\x18\x01p\x02\x98\x01\x01\xa2\x06\x07pruning"
    assert tg.ConfigProto.FromString(config.SerializeToString()) == config
    assert "remapping: OFF" in str(config) and tg.GraphOptions.RewriterConfig is RewriterConfig


def test_wire_bytes_are_tf1s():
    config_pb2 = pytest.importorskip("tensorboard.compat.proto.config_pb2")  # TF's config.proto, compiled by protobuf
    config = tg.ConfigProto(allow_soft_placement=True, device_count={"GPU": 0, "CPU": 2},
                            gpu_options=tg.GPUOptions(per_process_gpu_memory_fraction=0.4, allow_growth=True,
                                                      visible_device_list="0,1"),
                            graph_options={"optimizer_options": {"opt_level": tg.OptimizerOptions.L0}},
                            intra_op_parallelism_threads=2, operation_timeout_in_ms=-1)
    config.gpu_options.experimental.virtual_devices.add(memory_limit_mb=[1024.0])
    config.session_inter_op_thread_pool.add(num_threads=3, global_name="pool")
    config.device_filters.append("/job:worker")
    theirs = config_pb2.ConfigProto.FromString(config.SerializeToString())
    assert (theirs.allow_soft_placement, dict(theirs.device_count), theirs.operation_timeout_in_ms) == \
        (True, {"GPU": 0, "CPU": 2}, -1)
    assert (theirs.gpu_options.per_process_gpu_memory_fraction, theirs.gpu_options.allow_growth) == (0.4, True)
    assert theirs.gpu_options.visible_device_list == "0,1" and theirs.graph_options.optimizer_options.opt_level == -1
    assert list(theirs.gpu_options.experimental.virtual_devices[0].memory_limit_mb) == [1024.0]
    assert (theirs.session_inter_op_thread_pool[0].global_name, list(theirs.device_filters)) == \
        ("pool", ["/job:worker"])
    assert tg.ConfigProto.FromString(theirs.SerializeToString()) == config

    metadata = tg.RunMetadata()
    device = metadata.step_stats.dev_stats.add(device="/cpu:0", thread_names={0: "main"})
    node = device.node_stats.add(node_name="add", all_start_micros=5, op_end_rel_micros=2, thread_id=1)
    node.output.add(slot=0).tensor_description.shape.dim.add(size=3)
    theirs = config_pb2.RunMetadata.FromString(metadata.SerializeToString())
    stats = theirs.step_stats.dev_stats[0]
    assert (stats.device, dict(stats.thread_names), stats.node_stats[0].node_name) == ("/cpu:0", {0: "main"}, "add")
    got = stats.node_stats[0]
    assert (got.all_start_micros, got.op_end_rel_micros, got.thread_id) == (5, 2, 1)
    assert got.output[0].tensor_description.shape.dim[0].size == 3
    options = config_pb2.RunOptions.FromString(tg.RunOptions(trace_level=tg.RunOptions.FULL_TRACE,
                                                             timeout_in_ms=10).SerializeToString())
    assert (options.trace_level, options.timeout_in_ms) == (config_pb2.RunOptions.FULL_TRACE, 10)
