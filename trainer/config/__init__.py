"""tg.config: TF's tf.config where it means something for ringflow: the devices a graph can run on (the CPU, and each
GPU CuPy sees), which are visible, their logical devices and memory-growth setting, and the runtime settings
(threading, optimizer, soft placement, ...) that TF keeps and returns.

A Session runs on the CPU unless made with device="gpu"; a rank's GPU is its local rank's (allreduce/devices.py),
whatever is listed here. CuPy's memory pool always grows on demand, so a GPU's memory growth is on in effect;
set_memory_growth records the setting and checks its device as TF does, and get_memory_growth returns it. The
settings of settings.py are kept and returned as TF keeps them; ringflow's sessions read none of them (it has no
Grappler, XLA or eager runtime). Names for clusters, MLIR and TF32 fail saying they are missing.
"""
from . import experimental, optimizer, threading
from .devices import (LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice, get_logical_device_configuration,
                      get_memory_growth, get_visible_devices, list_logical_devices, list_physical_devices,
                      set_logical_device_configuration, set_memory_growth, set_visible_devices)
from .settings import (functions_run_eagerly, get_soft_device_placement, run_functions_eagerly,
                       set_soft_device_placement)
from ..unsupported import missing_names

# TF's deprecated spellings of the same two
experimental_functions_run_eagerly, experimental_run_functions_eagerly = functions_run_eagerly, run_functions_eagerly

__all__ = ["LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice", "experimental",
           "experimental_functions_run_eagerly", "experimental_run_functions_eagerly", "functions_run_eagerly",
           "get_logical_device_configuration", "get_memory_growth", "get_soft_device_placement",
           "get_visible_devices", "list_logical_devices", "list_physical_devices", "optimizer",
           "run_functions_eagerly", "set_logical_device_configuration", "set_memory_growth",
           "set_soft_device_placement", "set_visible_devices", "threading"]

__getattr__ = missing_names(__name__, have="tf.config has the device lists, visible and logical devices, memory "
                                           "growth, threading, optimizer and placement settings",
                            reasons={"experimental_connect_to_cluster": "TF2's eager cluster connection; a TF1 "
                                     "graph program connects through tf.train.Server and a session target",
                                     "experimental_connect_to_host": "TF2's eager cluster connection; use "
                                     "tf.train.Server and a session target"})
