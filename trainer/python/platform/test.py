"""tensorflow.python.platform.test: tf.test by the path TF's own tests import it from."""
# ruff: noqa: F401
from ...test import (Benchmark, TestCase, compute_gradient, compute_gradient_error, get_temp_dir, gpu_device_name,
                     is_built_with_cuda, is_built_with_gpu_support, is_built_with_rocm, is_gpu_available, main, mock)
