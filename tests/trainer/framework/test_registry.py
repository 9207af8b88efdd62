"""The array-module helpers of the op registry: get_array_module and to_numpy on host and device arrays."""
import numpy as np

from tests.trainer import strict_device
from trainer.framework.registry import get_array_module, to_numpy


def test_to_numpy_copies_a_device_array_to_the_host():
    host = np.arange(6.0).reshape(2, 3)
    device = strict_device.StrictArray(host.copy())
    assert get_array_module(device) is not np
    out = to_numpy(device)
    assert type(out) is np.ndarray and np.array_equal(out, host)


def test_to_numpy_passes_host_values_through_asarray():
    host = np.ones(3, np.float32)
    assert to_numpy(host) is host
    scalar = to_numpy(np.float32(2.5))
    assert type(scalar) is np.ndarray and scalar.shape == () and scalar.dtype == np.float32
    assert to_numpy([1, 2]).tolist() == [1, 2]
