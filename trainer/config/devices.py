"""The devices tf.config lists and their memory-growth settings (see tg.config)."""
import collections

from ..client.devices import gpu_count

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
_GROWTH = {}  # PhysicalDevice -> the memory growth set for it


def list_physical_devices(device_type=None):
    """The CPU and each GPU CuPy sees, as TF names them ('/physical_device:GPU:0'); only those of `device_type`
    ("CPU" or "GPU", case and all) where given."""
    found = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    found += [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(gpu_count())]
    return [d for d in found if device_type is None or d.device_type == device_type]  # "cpu" matches none, as TF


def list_logical_devices(device_type=None):
    """One logical device per physical one ('/device:GPU:0'), as TF without virtual devices."""
    return [LogicalDevice(d.name.replace("/physical_device:", "/device:"), d.device_type)
            for d in list_physical_devices(device_type)]


def _known(device):
    if device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}; tf.config.list_physical_devices() lists the known ones")
    return device


def set_memory_growth(device, enable):
    """Record `enable` for a listed PhysicalDevice (ValueError for any other, as TF)."""
    _GROWTH[_known(device)] = bool(enable)


def get_memory_growth(device):
    """The memory growth set for `device` (False until set, as TF reports it)."""
    return _GROWTH.get(_known(device), False)
