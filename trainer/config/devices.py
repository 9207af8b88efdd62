"""The devices tf.config lists, which of them are visible, their logical devices and memory-growth settings (see
tg.config)."""
import collections

from ..client.devices import gpu_count, gpu_properties

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])


class LogicalDeviceConfiguration(
        collections.namedtuple("LogicalDeviceConfiguration",
                               ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """One logical device to make of a physical one (TF's VirtualDeviceConfiguration is the same class)."""

    def __new__(cls, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority, experimental_device_ordinal)


VirtualDeviceConfiguration = LogicalDeviceConfiguration
_GROWTH = {}  # PhysicalDevice -> the memory growth set for it
_VISIBLE = {}  # device type -> the PhysicalDevices of that type left visible, where set
_LOGICAL = {}  # PhysicalDevice -> the LogicalDeviceConfigurations it is split into, where set


def list_physical_devices(device_type=None):
    """The CPU and each GPU CuPy sees, as TF names them ('/physical_device:GPU:0'); only those of `device_type`
    ("CPU" or "GPU", case and all) where given."""
    found = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    found += [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(gpu_count())]
    return [d for d in found if device_type is None or d.device_type == device_type]  # "cpu" matches none, as TF


def get_visible_devices(device_type=None):
    """The physical devices left visible (all until set_visible_devices hides some), of `device_type` where given."""
    visible = []
    for kind in dict.fromkeys(d.device_type for d in list_physical_devices()):
        visible += _VISIBLE.get(kind, list_physical_devices(kind))
    return [d for d in visible if device_type is None or d.device_type == device_type]


def set_visible_devices(devices, device_type=None):
    """Leave only `devices` (a PhysicalDevice or a list) visible among those of `device_type` (all types when
    None): list_logical_devices lists nothing of the hidden ones, as TF does."""
    single = isinstance(devices, PhysicalDevice) or not isinstance(devices, (list, tuple))
    devices = [devices] if single else list(devices)
    for device in devices:
        if device not in list_physical_devices(device_type):
            raise ValueError(f"Unrecognized device: {device!r}; tf.config.list_physical_devices({device_type!r}) "
                             "lists the known ones")
    for kind in dict.fromkeys(d.device_type for d in list_physical_devices(device_type)):
        _VISIBLE[kind] = [d for d in devices if d.device_type == kind]


def list_logical_devices(device_type=None):
    """One logical device per visible physical one ('/device:GPU:0'), or one per configuration that
    set_logical_device_configuration gave it, numbered per type as TF numbers them."""
    found, counts = [], collections.Counter()
    for device in get_visible_devices(device_type):
        for _ in _LOGICAL.get(device, [None]):
            found.append(LogicalDevice(f"/device:{device.device_type}:{counts[device.device_type]}",
                                       device.device_type))
            counts[device.device_type] += 1
    return found


def _known(device):
    if device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}; tf.config.list_physical_devices() lists the known ones")
    return device


def get_logical_device_configuration(device):
    """The LogicalDeviceConfigurations `device` is split into, None where it is not split."""
    return _LOGICAL.get(_known(device))


def set_logical_device_configuration(device, logical_devices):
    """Split `device` into one logical device per LogicalDeviceConfiguration; TF refuses a memory limit on the CPU,
    which has no allocator to cap, and so does ringflow."""
    _known(device)
    configurations = list(logical_devices)
    if device.device_type == "CPU" and any(c.memory_limit is not None for c in configurations):
        raise ValueError("Setting memory limit on CPU virtual devices is currently not supported")
    _LOGICAL[device] = configurations


def get_device_details(device):
    """{} for the CPU; a GPU's {'device_name', 'compute_capability': (major, minor)} as its driver reports them."""
    if not isinstance(device, PhysicalDevice):
        raise ValueError(f"device must be a tf.config.PhysicalDevice, but got: {device}")
    _known(device)
    if device.device_type != "GPU":
        return {}
    gpu = gpu_properties(int(device.name.rpartition(":")[2]))
    return {"device_name": gpu["name"], "compute_capability": gpu["compute_capability"]}


def set_memory_growth(device, enable):
    """Record `enable` for a listed GPU; ValueError for any other device, as TF."""
    if _known(device).device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    _GROWTH[device] = bool(enable)


def get_memory_growth(device):
    """The memory growth set for `device` (False until set, as TF reports it)."""
    return _GROWTH.get(_known(device), False)
