"""tg.config.experimental: TF 1.15's spelling of the device queries and memory-growth settings (tg.config)."""
from .devices import get_memory_growth, list_logical_devices, list_physical_devices, set_memory_growth
from ..unsupported import missing_names

__all__ = ["get_memory_growth", "list_logical_devices", "list_physical_devices", "set_memory_growth"]

__getattr__ = missing_names(__name__, have="tf.config.experimental has list_physical_devices, list_logical_devices "
                                           "and set_memory_growth/get_memory_growth")
