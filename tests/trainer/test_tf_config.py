"""tg.config: the devices TF 1.15's tf.config lists (the forms below are what TF 2.15's tf.compat.v1 printed on a
CPU-only machine) and the memory-growth setting programs make before building their graphs."""
import pytest

import trainer as tg
from trainer.client.devices import gpu_count
from trainer.unsupported import NotInRingflow


def test_the_devices_are_listed_as_tf_lists_them():
    assert repr(tg.config.experimental.list_physical_devices("CPU")) == (
        "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]")
    assert repr(tg.config.list_logical_devices("CPU")) == "[LogicalDevice(name='/device:CPU:0', device_type='CPU')]"
    gpus = tg.config.list_physical_devices("GPU")
    assert [d.name for d in gpus] == [f"/physical_device:GPU:{i}" for i in range(gpu_count())]
    assert tg.config.list_physical_devices() == tg.config.list_physical_devices("CPU") + gpus
    assert tg.config.list_physical_devices("cpu") == []  # TF matches the type as written


def test_memory_growth_is_kept_per_gpu_and_refused_for_other_devices():
    cpu = tg.config.list_physical_devices("CPU")[0]
    assert tg.config.experimental.get_memory_growth(cpu) is False
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU"):
        tg.config.experimental.set_memory_growth(cpu, True)  # TF refuses the CPU too
    with pytest.raises(ValueError, match="Unrecognized device: 'x'"):
        tg.config.experimental.set_memory_growth("x", True)
    for gpu in tg.config.list_physical_devices("GPU"):
        tg.config.experimental.set_memory_growth(gpu, True)
        assert tg.config.experimental.get_memory_growth(gpu) is True
        tg.config.experimental.set_memory_growth(gpu, False)


@pytest.fixture
def restored():
    """TF's defaults back after a test that changes the process-wide settings (a device once split stays split in
    TF: one logical device per physical one lists as if never split)."""
    yield
    cpu = tg.config.list_physical_devices("CPU")[0]
    tg.config.set_visible_devices(tg.config.list_physical_devices())
    tg.config.set_logical_device_configuration(cpu, [tg.config.LogicalDeviceConfiguration()])
    tg.config.threading.set_intra_op_parallelism_threads(0)
    tg.config.threading.set_inter_op_parallelism_threads(0)
    tg.config.optimizer.set_jit(False)
    tg.config.optimizer.set_experimental_options({"disable_meta_optimizer": False})
    tg.config.set_soft_device_placement(False)
    tg.config.run_functions_eagerly(False)
    tg.config.experimental.set_device_policy(None)
    tg.config.experimental.set_synchronous_execution(None)
    tg.debugging.set_log_device_placement(False)


def test_hidden_devices_leave_the_logical_list_as_tf_does(restored):
    cpu = tg.config.list_physical_devices("CPU")[0]
    tg.config.set_visible_devices([], "GPU")  # the usual way to keep a program off the GPUs
    assert tg.config.get_visible_devices() == [cpu] and tg.config.list_logical_devices("GPU") == []
    tg.config.set_visible_devices([])
    assert tg.config.get_visible_devices() == [] and tg.config.list_logical_devices() == []
    tg.config.experimental.set_visible_devices(cpu)
    assert tg.config.experimental.get_visible_devices("CPU") == [cpu]
    with pytest.raises(ValueError, match="Unrecognized device"):
        tg.config.set_visible_devices([cpu], "GPU")


def test_a_device_split_into_logical_devices_lists_each(restored):
    cpu = tg.config.list_physical_devices("CPU")[0]
    two = [tg.config.LogicalDeviceConfiguration(), tg.config.experimental.VirtualDeviceConfiguration()]
    tg.config.set_logical_device_configuration(cpu, two)
    assert tg.config.experimental.get_virtual_device_configuration(cpu) == two
    assert repr(tg.config.list_logical_devices("CPU")) == (  # as TF 2.15 printed them
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU'), LogicalDevice(name='/device:CPU:1', "
        "device_type='CPU')]")
    assert repr(two[0]) == ("LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, "
                            "experimental_device_ordinal=None)")
    with pytest.raises(ValueError, match="memory limit on CPU"):
        tg.config.set_logical_device_configuration(cpu, [tg.config.LogicalDeviceConfiguration(memory_limit=10)])


def test_settings_read_back_as_tf_reads_them(restored):
    # each pair: what a program sets, what TF 2.15's tf.compat.v1 read back after it
    tg.config.threading.set_intra_op_parallelism_threads(2)
    tg.config.threading.set_inter_op_parallelism_threads(4)
    assert (tg.config.threading.get_intra_op_parallelism_threads(),
            tg.config.threading.get_inter_op_parallelism_threads()) == (2, 4)
    with pytest.raises(TypeError, match="must be an integer, got 2.5"):
        tg.config.threading.set_intra_op_parallelism_threads(2.5)
    for value, read in [(True, "autoclustering"), ("bogus", ""), (1, "autoclustering"), (None, ""),
                        ("autoclustering", "autoclustering"), (False, "")]:
        tg.config.optimizer.set_jit(value)
        assert tg.config.optimizer.get_jit() == read, value
    # a switch once set stays set in TF too, so only the two TF always reports are changed here (and restored)
    tg.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    tg.config.optimizer.set_experimental_options({})
    assert tg.config.optimizer.get_experimental_options() == {"disable_model_pruning": False,
                                                              "disable_meta_optimizer": True}
    tg.config.set_soft_device_placement(1)
    tg.config.run_functions_eagerly(True)
    tg.config.experimental.set_device_policy("explicit")
    tg.config.experimental.set_synchronous_execution(False)
    tg.debugging.set_log_device_placement(True)
    assert (tg.config.get_soft_device_placement(), tg.config.functions_run_eagerly(),
            tg.config.experimental_functions_run_eagerly(), tg.config.experimental.get_device_policy(),
            tg.config.experimental.get_synchronous_execution(), tg.debugging.get_log_device_placement()) == (
        True, True, True, "explicit", False, True)
    with pytest.raises(ValueError, match="Invalid argument `device_policy`: 'bogus'"):
        tg.config.experimental.set_device_policy("bogus")


def test_device_details_are_empty_for_the_cpu_and_name_a_gpu():
    assert tg.config.experimental.get_device_details(tg.config.list_physical_devices("CPU")[0]) == {}
    for gpu in tg.config.list_physical_devices("GPU"):
        details = tg.config.experimental.get_device_details(gpu)
        assert details["device_name"] and len(details["compute_capability"]) == 2
    with pytest.raises(ValueError, match="must be a tf.config.PhysicalDevice"):
        tg.config.experimental.get_device_details("x")


def test_what_tf_config_lacks_says_so():
    assert hasattr(tg.config.experimental, "set_memory_growth")  # Horovod's tests branch on it
    with pytest.raises(NotInRingflow, match="tf.config.experimental.enable_mlir_bridge is not available"):
        tg.config.experimental.enable_mlir_bridge()
    assert not hasattr(tg.config, "experimental_connect_to_cluster")
