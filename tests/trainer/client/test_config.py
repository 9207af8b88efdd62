"""TF1's config messages as protobuf behaves: typed fields, nested messages, unknown fields refused by name."""
import pytest

import trainer as tg


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
