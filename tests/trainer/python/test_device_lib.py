"""tensorflow.python.client.device_lib: the devices a session here can run on, as TF's DeviceAttributes."""
import pytest

import trainer as tg
from trainer.client.devices import gpu_count
from trainer.python.client import device_lib


def test_the_cpu_and_each_gpu_are_listed_as_tf_lists_them():
    devices = device_lib.list_local_devices()
    assert [(d.name, d.device_type) for d in devices] == [("/device:CPU:0", "CPU")] + [
        (f"/device:GPU:{i}", "GPU") for i in range(gpu_count())]
    cpu = devices[0]
    assert cpu.memory_limit == 268435456 and cpu.incarnation != 0  # TF's nominal 256 MiB for the CPU
    assert str(cpu).startswith('name: "/device:CPU:0"\ndevice_type: "CPU"\nmemory_limit: 268435456\n')
    for gpu in devices[1:]:
        assert gpu.memory_limit > 0 and "compute capability: " in gpu.physical_device_desc
    assert device_lib.list_local_devices()[0].incarnation != cpu.incarnation  # fresh devices each call, as TF


def test_a_session_config_limits_the_devices():
    assert [d.device_type for d in device_lib.list_local_devices(tg.ConfigProto(device_count={"GPU": 0}))] == ["CPU"]
    with pytest.raises(RuntimeError, match="No CPU devices are available"):
        device_lib.list_local_devices(tg.ConfigProto(device_count={"CPU": 0}))
