"""tg.config.experimental: TF 1.15's spelling of the device queries and settings (tg.config), and the eager
runtime's device policy and execution mode, kept as TF keeps them (settings.py)."""
from .devices import (VirtualDeviceConfiguration, get_device_details, get_logical_device_configuration,
                      get_memory_growth, get_visible_devices, list_logical_devices, list_physical_devices,
                      set_logical_device_configuration, set_memory_growth, set_visible_devices)
from .settings import get_device_policy, get_synchronous_execution, set_device_policy, set_synchronous_execution
from ..unsupported import missing_names

# TF 1.15's names for the logical-device configuration
get_virtual_device_configuration, set_virtual_device_configuration = (get_logical_device_configuration,
                                                                      set_logical_device_configuration)

__all__ = ["VirtualDeviceConfiguration", "get_device_details", "get_device_policy", "get_memory_growth",
           "get_synchronous_execution", "get_virtual_device_configuration", "get_visible_devices",
           "list_logical_devices", "list_physical_devices", "set_device_policy", "set_memory_growth",
           "set_synchronous_execution", "set_virtual_device_configuration", "set_visible_devices"]

__getattr__ = missing_names(__name__, have="tf.config.experimental has the device lists, visible and virtual "
                                           "devices, memory growth, device policy and synchronous execution",
                            reasons={"enable_mlir_bridge": "MLIR", "disable_mlir_bridge": "MLIR",
                                     "ClusterDeviceFilters": "TF2's eager cluster device filters",
                                     "enable_tensor_float_32_execution": "TF32 matmuls: CuPy reads CUPY_TF32 "
                                     "once, when it loads; set it in the environment",
                                     "tensor_float_32_execution_enabled": "TF32 matmuls: CuPy follows CUPY_TF32",
                                     "get_memory_info": "device memory statistics",
                                     "get_memory_usage": "device memory statistics",
                                     "reset_memory_stats": "device memory statistics"})
