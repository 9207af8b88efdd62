"""tg.config: TF's tf.config where it means something for ringflow: the devices a graph can run on (the CPU, and each
GPU CuPy sees) and their memory-growth setting.

A Session runs on the CPU unless made with device="gpu"; a rank's GPU is its local rank's (allreduce/devices.py),
whatever is listed here. CuPy's memory pool always grows on demand, so a GPU's memory growth is on in effect;
set_memory_growth records the setting and checks its device as TF does, and get_memory_growth returns it. Other
tf.config names (visible devices, thread pools, the optimizer's and XLA's options) fail saying they are missing.
"""
from . import experimental
from .devices import (LogicalDevice, PhysicalDevice, get_memory_growth, list_logical_devices, list_physical_devices,
                      set_memory_growth)
from ..unsupported import missing_names

__all__ = ["LogicalDevice", "PhysicalDevice", "experimental", "get_memory_growth", "list_logical_devices",
           "list_physical_devices", "set_memory_growth"]

__getattr__ = missing_names(__name__, have="tf.config has list_physical_devices, list_logical_devices and "
                                           "experimental.set_memory_growth/get_memory_growth")
