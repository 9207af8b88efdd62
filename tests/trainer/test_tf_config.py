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


def test_memory_growth_is_kept_per_listed_device_and_refused_for_others():
    cpu = tg.config.list_physical_devices("CPU")[0]
    assert tg.config.experimental.get_memory_growth(cpu) is False
    tg.config.experimental.set_memory_growth(cpu, True)
    assert tg.config.experimental.get_memory_growth(cpu) is True
    tg.config.experimental.set_memory_growth(cpu, False)
    with pytest.raises(ValueError, match="Unrecognized device: 'x'"):
        tg.config.experimental.set_memory_growth("x", True)


def test_what_tf_config_lacks_says_so():
    assert hasattr(tg.config.experimental, "set_memory_growth")  # Horovod's tests branch on it
    with pytest.raises(NotInRingflow, match="tf.config.experimental.set_visible_devices is not available"):
        tg.config.experimental.set_visible_devices([], "GPU")
    assert not hasattr(tg.config, "threading")
