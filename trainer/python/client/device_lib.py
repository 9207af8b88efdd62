"""tensorflow.python.client.device_lib: the devices a session here can run on (the CPU, and each GPU CuPy sees), as
TF's DeviceAttributes messages; programs list them to count the GPUs ([d.name for d in ... if d.device_type ==
"GPU"])."""
import random

from ...client.devices import gpu_count, gpu_properties
from ...platform.protobuf import Field as F, Message

# TF reports its CPU allocator's nominal limit, 256 MiB; neither TF nor ringflow caps host memory by it
CPU_MEMORY_LIMIT = 256 << 20


class DeviceLocality(Message):
    """Where a device sits: bus_id is its NUMA node + 1 (1 where unknown, as TF says for every device here)."""
    FIELDS = {"bus_id": F(1, "int32"), "numa_node": F(2, "int32")}


class DeviceAttributes(Message):
    """One device, with the field numbers of TF's device_attributes.proto."""
    FIELDS = {"name": F(1, "string"), "device_type": F(2, "string"), "memory_limit": F(4, "int64"),
              "locality": F(5, "message", DeviceLocality), "incarnation": F(6, "fixed64"),
              "physical_device_desc": F(7, "string")}


def _incarnation():
    return random.getrandbits(64) or 1  # TF draws a fresh nonzero id each time it creates a device


def _gpu(ordinal):
    gpu = gpu_properties(ordinal)
    major, minor = gpu["compute_capability"]
    return DeviceAttributes(name=f"/device:GPU:{ordinal}", device_type="GPU", memory_limit=gpu["memory"],
                            locality=DeviceLocality(bus_id=1), incarnation=_incarnation(),
                            physical_device_desc=f"device: {ordinal}, name: {gpu['name']}, pci bus id: "
                                                 f"{gpu['pci_bus_id']}, compute capability: {major}.{minor}")


def list_local_devices(session_config=None):
    """DeviceAttributes of the CPU and each GPU, as many of each as session_config's device_count allows."""
    counts = dict(session_config.device_count) if session_config is not None else {}
    if counts.get("CPU", 1) < 1:
        raise RuntimeError("No CPU devices are available in this process: device_count {'CPU': 0} leaves none; "
                           "ringflow always runs on the CPU")
    devices = [DeviceAttributes(name="/device:CPU:0", device_type="CPU", memory_limit=CPU_MEMORY_LIMIT,
                                locality=DeviceLocality(), incarnation=_incarnation())]
    return devices + [_gpu(i) for i in range(min(gpu_count(), counts.get("GPU", gpu_count())))]
