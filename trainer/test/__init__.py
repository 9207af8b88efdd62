"""tf.test: TestCase, main, Benchmark, the gradient checker, the GPU queries, GraphDef comparison and stubs (TF1's
tensorflow/python/platform/test.py)."""
# ruff: noqa: F401
from unittest import mock

from .benchmark import Benchmark, benchmark_config
from .environment import (get_temp_dir, gpu_device_name, is_built_with_cuda, is_built_with_gpu_support,
                          is_built_with_rocm, is_built_with_xla, is_gpu_available, main)
from .graph_defs import assert_equal_graph_def
from .modes import disable_with_predicate, with_eager_op_as_function
from .stubs import StubOutForTesting
from .gradient_checker import compute_gradient, compute_gradient_error
from .testcase import TestCase
